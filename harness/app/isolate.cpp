// posix_spawn with a process group, polled with a deadline.
#include "app/isolate.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/exit_cleanup.hpp"

extern char** environ;

namespace clh {

std::string signalName(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

ChildOutcome runChild(const std::vector<std::string>& argv, double timeout_s) {
  return runChild(argv, timeout_s, "", 0);
}

ChildOutcome runChild(const std::vector<std::string>& argv, double timeout_s,
                      const std::string& progress, double idle_s) {
  ChildOutcome out;
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], nullptr, &attr, args.data(), environ);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    out.error = std::string("cannot start ") + argv[0] + ": " + strerror(rc);
    return out;
  }
  out.started = true;
  // The child's group is its own, so a Ctrl-C or a `timeout` reaches only this process: if one
  // ends it, the group goes with it.
  killOnSignal(pid);
  struct Forget {
    pid_t pid;
    ~Forget() { forgetChildGroup(pid); }
  } forget{pid};
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  auto pause = std::chrono::milliseconds(1);
  int status = 0;
  std::uintmax_t last_size = 0;
  auto last_growth = std::chrono::steady_clock::now();
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) {
      out.error = std::string("waitpid: ") + strerror(errno);
      return out;
    }
    const auto now = std::chrono::steady_clock::now();
    if (!progress.empty() && idle_s > 0) {
      std::error_code ec;
      const auto size = std::filesystem::file_size(progress, ec);
      if (!ec && size != last_size) {
        last_size = size;
        last_growth = now;
      } else if (now - last_growth > std::chrono::duration<double>(idle_s)) {
        out.stalled = true;
      }
    }
    if ((timeout_s > 0 && now > deadline) || out.stalled) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      out.timed_out = true;
      return out;
    }
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(20)) pause *= 2;
  }
  if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  kill(-pid, SIGKILL);  // anything the child left behind in its group
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
