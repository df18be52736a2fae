// A planted escape (tests/reliability/sandbox_test.cpp): run where a student's kernel would run, it
// tries to read and write files outside its folder, connect to the test's TCP listener, run
// /bin/sh, and signal and trace its parent and the test; one line per attempt, "NAME ok" or
// "NAME refused: WHY" ("signal sent" or why not: the test counts what arrives). Also `exit N`,
// `abort` and `spin`: ends the sandbox must pass on as the program's own.
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void say(const char* name, bool ok, int err) {
  if (ok)
    std::printf("%s ok\n", name);
  else
    std::printf("%s refused: %s\n", name, strerror(err));
}

// "ok" only when the secret's own text was read ("the answer"); "stand-in" when the path held
// another file (a sandbox that shows the submission there).
void readSecret(const char* path) {
  char buf[64];
  const int fd = ::open(path, O_RDONLY);
  const ssize_t n = fd >= 0 ? ::read(fd, buf, sizeof buf) : -1;
  if (n > 0 && std::string(buf, static_cast<size_t>(n)).find("the answer") == std::string::npos)
    std::printf("read stand-in\n");
  else
    say("read", n > 0, fd < 0 ? errno : EIO);
  if (fd >= 0) ::close(fd);
}

void writeOutside(const char* path) {
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const bool ok = fd >= 0 && ::write(fd, "escaped\n", 8) == 8;
  say("write", ok, errno);
  if (fd >= 0) ::close(fd);
}

void connectLoopback(int port) {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) return say("connect", false, errno);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // the test's own listener, never another address
  const bool ok = ::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  say("connect", ok, errno);
  ::close(s);
}

void runShell() {
  const pid_t pid = ::fork();
  if (pid < 0) return say("exec", false, errno);
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", "exit 7", static_cast<char*>(nullptr));
    ::_exit(100 + (errno & 63));
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 7;
  say("exec", ok, ok ? 0 : WIFEXITED(status) ? WEXITSTATUS(status) - 100 : EINTR);
}

// SIGUSR1 to its parent and to the test: the test counts what arrives (a kill that returns 0 may
// still reach no one: the first process of a PID namespace drops it).
void signalParent(pid_t test) {
  const bool parent = ::kill(::getppid(), SIGUSR1) == 0;
  const int e = errno;
  const bool direct = test != ::getppid() && ::kill(test, SIGUSR1) == 0;
  std::printf("signal %s\n", parent || direct ? "sent" : strerror(e));
}

// PTRACE_SEIZE stops nothing; this process's exit detaches it.
void traceParent(pid_t test) {
  bool ok = ::ptrace(PTRACE_SEIZE, ::getppid(), nullptr, nullptr) == 0;
  int e = errno;
  if (!ok && test != ::getppid()) {
    ok = ::ptrace(PTRACE_SEIZE, test, nullptr, nullptr) == 0;
    e = errno;
  }
  say("ptrace", ok, e);
}

}  // namespace

int main(int argc, char** argv) {
  // How the sandbox passes a program's end on: an exit code, an abort, the CPU limit.
  if (argc == 3 && std::string(argv[1]) == "exit") return std::atoi(argv[2]);
  if (argc == 2 && std::string(argv[1]) == "abort") std::abort();
  if (argc == 2 && std::string(argv[1]) == "spin")
    for (;;) asm volatile("" ::: "memory");
  if (argc != 5) {
    std::fprintf(stderr, "usage: escape_probe SECRET OUTSIDE_FILE PORT TEST_PID\n");
    return 2;
  }
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  const pid_t test = static_cast<pid_t>(std::atol(argv[4]));
  readSecret(argv[1]);
  writeOutside(argv[2]);
  connectLoopback(std::atoi(argv[3]));
  runShell();
  signalParent(test);
  traceParent(test);
  return 0;
}
