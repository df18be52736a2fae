// fork + exec into a new process group with PR_SET_PDEATHSIG, limits and a sandbox, polled with a
// deadline, a progress watchdog and the interrupt flag; the interrupt handlers themselves.
#include "proc/child.hpp"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>

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

// What the child's side gets ready before the fork: argv and the environment as C arrays, and the
// sandbox's plan.
struct ExecPlan {
  std::vector<char*> args, envp;  // envp empty: this process's environment
  const ChildOptions* options = nullptr;
  SandboxPlanPtr sandbox;
};

// Why a child did not start, sent through the close-on-exec pipe: an errno and the step it came
// from ("" for the exec itself).
struct StartFailure {
  int err = 0;
  char step[40] = {};
};

[[noreturn]] void reportStartFailure(int errWrite, int err, const char* step) {
  StartFailure f;
  f.err = err;
  for (size_t i = 0; step && step[i] && i + 1 < sizeof f.step; ++i) f.step[i] = step[i];
  [[maybe_unused]] ssize_t n = ::write(errWrite, &f, sizeof f);
  ::_exit(127);
}

// The child's side between fork and exec: only async-signal-safe calls. An errno that stops it
// goes to the parent through `errWrite`.
[[noreturn]] void execChild(const ExecPlan& plan, pid_t parent, int errWrite, int outWrite) {
  ::setpgid(0, 0);
  // Dies with the thread that forked it; a parent that died before this line is seen below.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (outWrite >= 0) ::dup2(outWrite, STDOUT_FILENO);
  const ChildOptions& o = *plan.options;
  int e = setProcessLimits(o.cpu_limit_s, o.memory_limit_bytes);
  if (e != 0) reportStartFailure(errWrite, e, "");
  if (plan.sandbox) {
    const char* step = "";
    e = execSandboxed(*plan.sandbox, plan.args.data(),
                      plan.envp.empty() ? nullptr : plan.envp.data(), o.cwd.c_str(), errWrite,
                      &step);
    reportStartFailure(errWrite, e, step);
  }
  if (!o.cwd.empty() && ::chdir(o.cwd.c_str()) != 0) reportStartFailure(errWrite, errno, "");
  if (plan.envp.empty())
    ::execv(plan.args[0], plan.args.data());
  else
    ::execve(plan.args[0], plan.args.data(), plan.envp.data());
  reportStartFailure(errWrite, errno, "");
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

int setProcessLimits(double cpu_s, uint64_t memory_bytes) {
  auto set = [](int resource, rlim_t soft, rlim_t hard) {
    rlimit current{};
    ::getrlimit(resource, &current);
    rlimit l{soft, hard};
    if (current.rlim_max != RLIM_INFINITY) {  // an unprivileged process cannot raise its hard limit
      l.rlim_max = l.rlim_max < current.rlim_max ? l.rlim_max : current.rlim_max;
      l.rlim_cur = l.rlim_cur < l.rlim_max ? l.rlim_cur : l.rlim_max;
    }
    return ::setrlimit(resource, &l) == 0 ? 0 : errno;
  };
  if (cpu_s > 0) {
    const auto s = static_cast<rlim_t>(std::ceil(cpu_s));
    if (const int e = set(RLIMIT_CPU, s, s + 5)) return e;
    const rlimit core{0, 0};
    ::setrlimit(RLIMIT_CORE, &core);
  }
  if (memory_bytes > 0) return set(RLIMIT_DATA, memory_bytes, memory_bytes);
  return 0;
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

namespace {

// A started child: its process id and the read end of its stdout pipe (-1 when not captured).
struct StartedChild {
  pid_t pid = -1;
  int out_fd = -1;
};

// Starts `argv` in a process group of its own; none, with `out.error` set, when it cannot start.
std::optional<StartedChild> startChild(const std::vector<std::string>& argv, const ChildOptions& o,
                                       ChildOutcome& out) {
  ExecPlan plan;
  plan.options = &o;
  for (const auto& a : argv) plan.args.push_back(const_cast<char*>(a.c_str()));
  plan.args.push_back(nullptr);
  if (o.env) {
    for (const auto& e : *o.env) plan.envp.push_back(const_cast<char*>(e.c_str()));
    plan.envp.push_back(nullptr);
  }
  if (o.sandbox) try {
      plan.sandbox = planSandbox(*o.sandbox, argv[0]);
    } catch (const std::exception& e) {
      out.error = std::string("cannot start ") + argv[0] + ": sandbox: " + e.what();
      return std::nullopt;
    }
  int errPipe[2] = {-1, -1}, outPipe[2] = {-1, -1};
  if (::pipe2(errPipe, O_CLOEXEC) != 0 || (o.capture_stdout && ::pipe2(outPipe, O_CLOEXEC) != 0)) {
    out.error = std::string("cannot start ") + argv[0] + ": pipe: " + strerror(errno);
    closeBoth(errPipe);
    closeBoth(outPipe);
    return std::nullopt;
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    out.error = std::string("cannot start ") + argv[0] + ": fork: " + strerror(errno);
    closeBoth(errPipe);
    closeBoth(outPipe);
    return std::nullopt;
  }
  if (pid == 0) execChild(plan, parent, errPipe[1], outPipe[1]);
  // Both sides set the group, so that a kill(-pid) below never misses a child not yet in it.
  ::setpgid(pid, pid);
  ::close(errPipe[1]);
  if (outPipe[1] >= 0) ::close(outPipe[1]);
  // The exec's errno comes through the close-on-exec pipe when the exec (or a step before it)
  // failed.
  StartFailure failure;
  ssize_t n;
  while ((n = ::read(errPipe[0], &failure, sizeof failure)) < 0 && errno == EINTR) {
  }
  ::close(errPipe[0]);
  if (n == static_cast<ssize_t>(sizeof failure)) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (outPipe[0] >= 0) ::close(outPipe[0]);
    out.error = std::string("cannot start ") + argv[0] + ": " +
                (failure.step[0] ? std::string(failure.step) + ": " : "") + strerror(failure.err);
    return std::nullopt;
  }
  out.started = true;
  return StartedChild{pid, outPipe[0]};
}

// A started child until it ends or is ended: polled with a deadline, a progress watchdog and the
// interrupt flag, its stdout read meanwhile.
class ChildWatch {
 public:
  ChildWatch(const ChildOptions& o, StartedChild child, ChildOutcome& out)
      : o_(o),
        child_(child),
        out_(out),
        start_(Clock::now()),
        deadline_(start_ + std::chrono::duration<double>(o.timeout_s)),
        last_growth_(Clock::now()),
        slow_step_(o.slow_idle_s > 0),
        out_open_(child.out_fd >= 0) {}

  // Polls until the child ends, the time limit or the watchdog ends it, or an interrupt; then
  // ends what it left in its group and reads the rest of its output. Its wait status.
  int wait() {
    int pauseMs = 1;
    for (;;) {
      const pid_t r = ::waitpid(child_.pid, &status_, WNOHANG);
      if (r == child_.pid) break;
      if (r < 0 && errno != EINTR) {
        out_.error = std::string("waitpid: ") + strerror(errno);
        ::kill(-child_.pid, SIGKILL);
        break;
      }
      const auto now = Clock::now();
      watchProgress(now);
      if (interruptRequested()) {
        endGroup();
        out_.interrupted = true;
        break;
      }
      const bool stopped = o_.stop && o_.stop(std::chrono::duration<double>(now - start_).count());
      if ((o_.timeout_s > 0 && now > deadline_) || out_.stalled || stopped) {
        endGroup();
        out_.timed_out = true;
        out_.limit_s = out_.stalled ? (slow_step_ ? o_.slow_idle_s : o_.idle_s)
                       : stopped    ? 0
                                    : o_.timeout_s;
        break;
      }
      drain(pauseMs);
      if (pauseMs < 20) pauseMs *= 2;
    }
    ::kill(-child_.pid, SIGKILL);  // anything the child left behind in its group
    readRest();
    return status_;
  }

 private:
  using Clock = std::chrono::steady_clock;

  // The watchdog: the progress file must grow within idle_s (slow_idle_s while its last line
  // names the slow step), or the child is stalled.
  void watchProgress(Clock::time_point now) {
    if (o_.progress.empty() || o_.idle_s <= 0) return;
    std::error_code ec;
    const auto size = std::filesystem::file_size(o_.progress, ec);
    if (!ec && size != last_size_) {
      last_size_ = size;
      last_growth_ = now;
      if (o_.slow_idle_s > 0)
        slow_step_ = !o_.slow_marker.empty() &&
                     lastLine(o_.progress, size).find(o_.slow_marker) != std::string::npos;
    } else if (now - last_growth_ >
               std::chrono::duration<double>(slow_step_ ? o_.slow_idle_s : o_.idle_s)) {
      out_.stalled = true;
    }
  }

  // Waits up to waitMs for the child's output and reads what came.
  void drain(int waitMs) {
    if (!out_open_) {
      if (waitMs > 0) ::poll(nullptr, 0, waitMs);
      return;
    }
    pollfd p{child_.out_fd, POLLIN, 0};
    if (::poll(&p, 1, waitMs) <= 0) return;
    char buf[65536];
    const ssize_t got = ::read(child_.out_fd, buf, sizeof buf);
    if (got > 0)
      out_.out.append(buf, static_cast<size_t>(got));
    else if (got == 0 || errno != EINTR)
      out_open_ = false;
  }

  void endGroup() {
    ::kill(-child_.pid, SIGKILL);
    ::waitpid(child_.pid, &status_, 0);
  }

  // What it wrote before it ended; a process outside its group holding the pipe open cannot
  // keep this waiting for more than a moment.
  void readRest() {
    while (out_open_) {
      pollfd p{child_.out_fd, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) break;
      char buf[65536];
      const ssize_t got = ::read(child_.out_fd, buf, sizeof buf);
      if (got <= 0) break;
      out_.out.append(buf, static_cast<size_t>(got));
    }
    if (child_.out_fd >= 0) ::close(child_.out_fd);
  }

  const ChildOptions& o_;
  const StartedChild child_;
  ChildOutcome& out_;
  const Clock::time_point start_;
  const decltype(Clock::now() + std::chrono::duration<double>()) deadline_;
  Clock::time_point last_growth_;
  std::uintmax_t last_size_ = 0;
  bool slow_step_;  // making a context, until the first line
  bool out_open_;
  int status_ = 0;
};

}  // namespace

ChildOutcome runChild(const std::vector<std::string>& argv, const ChildOptions& o) {
  ChildOutcome out;
  if (argv.empty()) {
    out.error = "cannot start a child: no command";
    return out;
  }
  const std::optional<StartedChild> child = startChild(argv, o, out);
  if (!child) return out;
  const int status = ChildWatch(o, *child, out).wait();
  if (!out.timed_out && !out.interrupted) {
    if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  }
  if (o.cpu_limit_s > 0 && out.signal == SIGXCPU) {  // the CPU-time limit: a timeout, not a crash
    out.signal = 0;
    out.timed_out = out.cpu_limited = true;
    out.limit_s = o.cpu_limit_s;
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
  return lastLinesOf(std::string(std::istreambuf_iterator<char>(in), {}), n, width);
}

std::string lastLinesOf(const std::string& text, size_t n, size_t width) {
  std::deque<std::string> lines;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(at, nl - at);
    at = nl + 1;
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
