// fork + exec into a new process group with PR_SET_PDEATHSIG, polled with a deadline, a progress
// watchdog and the interrupt flag; the interrupt handlers themselves.
#include "proc/child.hpp"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <deque>
#include <filesystem>
#include <fstream>

namespace clh {

namespace {

volatile std::sig_atomic_t g_interrupt = 0;

extern "C" void onInterrupt(int sig) {
  if (!g_interrupt) g_interrupt = sig;
}

void closeBoth(int fds[2]) {
  if (fds[0] >= 0) ::close(fds[0]);
  if (fds[1] >= 0) ::close(fds[1]);
  fds[0] = fds[1] = -1;
}

// The child's side between fork and exec: only async-signal-safe calls.
[[noreturn]] void execChild(char* const* args, pid_t parent, int errWrite, int outWrite) {
  ::setpgid(0, 0);
  // Dies with the thread that forked it; a parent that died before this line is seen below.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (outWrite >= 0) ::dup2(outWrite, STDOUT_FILENO);
  ::execv(args[0], args);
  const int e = errno;
  [[maybe_unused]] ssize_t n = ::write(errWrite, &e, sizeof e);
  ::_exit(127);
}

// The last complete line of a file `size` bytes long (its last 4 KiB are enough for a progress
// line).
std::string lastLine(const std::string& path, std::uintmax_t size) {
  std::ifstream in(path, std::ios::binary);
  const std::uintmax_t from = size > 4096 ? size - 4096 : 0;
  in.seekg(static_cast<std::streamoff>(from));
  std::string tail((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!tail.empty() && tail.back() == '\n') tail.pop_back();
  const size_t nl = tail.rfind('\n');
  return nl == std::string::npos ? tail : tail.substr(nl + 1);
}

}  // namespace

void installInterruptHandlers() {
  struct sigaction sa {};
  sa.sa_handler = onInterrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART | SA_RESETHAND;  // a second signal kills at once
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

int interruptRequested() {
  return g_interrupt;
}

int interruptExitCode() {
  return g_interrupt ? 128 + g_interrupt : 0;
}

void clearInterruptForTesting() {
  g_interrupt = 0;
}

std::string signalName(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

ChildOutcome runChild(const std::vector<std::string>& argv, double timeout_s) {
  ChildOptions o;
  o.timeout_s = timeout_s;
  return runChild(argv, o);
}

ChildOutcome runChild(const std::vector<std::string>& argv, double timeout_s,
                      const std::string& progress, double idle_s) {
  ChildOptions o;
  o.timeout_s = timeout_s;
  o.progress = progress;
  o.idle_s = idle_s;
  return runChild(argv, o);
}

ChildOutcome runChild(const std::vector<std::string>& argv, const ChildOptions& o) {
  ChildOutcome out;
  if (argv.empty()) {
    out.error = "cannot start a child: no command";
    return out;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int errPipe[2] = {-1, -1}, outPipe[2] = {-1, -1};
  if (::pipe2(errPipe, O_CLOEXEC) != 0 || (o.capture_stdout && ::pipe2(outPipe, O_CLOEXEC) != 0)) {
    out.error = std::string("cannot start ") + argv[0] + ": pipe: " + strerror(errno);
    closeBoth(errPipe);
    closeBoth(outPipe);
    return out;
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    out.error = std::string("cannot start ") + argv[0] + ": fork: " + strerror(errno);
    closeBoth(errPipe);
    closeBoth(outPipe);
    return out;
  }
  if (pid == 0) execChild(args.data(), parent, errPipe[1], outPipe[1]);
  // Both sides set the group, so that a kill(-pid) below never misses a child not yet in it.
  ::setpgid(pid, pid);
  ::close(errPipe[1]);
  if (outPipe[1] >= 0) ::close(outPipe[1]);
  int execErrno = 0;
  ssize_t n;
  while ((n = ::read(errPipe[0], &execErrno, sizeof execErrno)) < 0 && errno == EINTR) {
  }
  ::close(errPipe[0]);
  if (n == static_cast<ssize_t>(sizeof execErrno)) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (outPipe[0] >= 0) ::close(outPipe[0]);
    out.error = std::string("cannot start ") + argv[0] + ": " + strerror(execErrno);
    return out;
  }
  out.started = true;

  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration<double>(o.timeout_s);
  int pauseMs = 1;
  int status = 0;
  std::uintmax_t lastSize = 0;
  auto lastGrowth = clock::now();
  bool slowStep = o.slow_idle_s > 0;  // making a context, until the first line
  bool outOpen = outPipe[0] >= 0;
  auto drain = [&](int waitMs) {
    if (!outOpen) {
      if (waitMs > 0) ::poll(nullptr, 0, waitMs);
      return;
    }
    pollfd p{outPipe[0], POLLIN, 0};
    if (::poll(&p, 1, waitMs) <= 0) return;
    char buf[65536];
    const ssize_t got = ::read(outPipe[0], buf, sizeof buf);
    if (got > 0)
      out.out.append(buf, static_cast<size_t>(got));
    else if (got == 0 || errno != EINTR)
      outOpen = false;
  };
  auto endGroup = [&] {
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, &status, 0);
  };
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) {
      out.error = std::string("waitpid: ") + strerror(errno);
      ::kill(-pid, SIGKILL);
      break;
    }
    const auto now = clock::now();
    if (!o.progress.empty() && o.idle_s > 0) {
      std::error_code ec;
      const auto size = std::filesystem::file_size(o.progress, ec);
      if (!ec && size != lastSize) {
        lastSize = size;
        lastGrowth = now;
        if (o.slow_idle_s > 0)
          slowStep = !o.slow_marker.empty() &&
                     lastLine(o.progress, size).find(o.slow_marker) != std::string::npos;
      } else if (now - lastGrowth >
                 std::chrono::duration<double>(slowStep ? o.slow_idle_s : o.idle_s)) {
        out.stalled = true;
      }
    }
    if (interruptRequested()) {
      endGroup();
      out.interrupted = true;
      break;
    }
    if ((o.timeout_s > 0 && now > deadline) || out.stalled) {
      endGroup();
      out.timed_out = true;
      out.limit_s = out.stalled ? (slowStep ? o.slow_idle_s : o.idle_s) : o.timeout_s;
      break;
    }
    drain(pauseMs);
    if (pauseMs < 20) pauseMs *= 2;
  }
  ::kill(-pid, SIGKILL);  // anything the child left behind in its group
  // What it wrote before it ended; a process outside its group holding the pipe open cannot
  // keep this waiting for more than a moment.
  while (outOpen) {
    pollfd p{outPipe[0], POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) break;
    char buf[65536];
    const ssize_t got = ::read(outPipe[0], buf, sizeof buf);
    if (got <= 0) break;
    out.out.append(buf, static_cast<size_t>(got));
  }
  if (outPipe[0] >= 0) ::close(outPipe[0]);
  if (!out.timed_out && !out.interrupted) {
    if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  }
  return out;
}

void writeJsonLine(std::FILE* f, const nlohmann::json& j) {
  const std::string s = j.dump() + "\n";
  std::fwrite(s.data(), 1, s.size(), f);
  std::fflush(f);
}

bool redirectStderr(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return false;
  const bool ok = ::dup2(fd, STDERR_FILENO) >= 0;
  ::close(fd);
  return ok;
}

std::string lastLines(const std::string& path, size_t n, size_t width) {
  std::ifstream in(path);
  std::deque<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (line.size() > width) line = line.substr(0, width - 3) + "...";
    lines.push_back(std::move(line));
    if (lines.size() > n) lines.pop_front();
  }
  std::string out;
  for (const auto& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

}  // namespace clh
