// The one child-process runner: spawn in a new process group, death with the parent, a wall-clock
// limit, CPU and memory limits, a progress-file watchdog, a sandbox (environment and folder), and
// an end on the parent's interrupt (SIGINT/SIGTERM). The protocol over it: proc/job.hpp.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "proc/sandbox.hpp"

namespace clh {

struct ChildOutcome {
  bool started = false;
  bool timed_out = false;
  int exit_code = -1;        ///< when it exited
  int signal = 0;            ///< when a signal ended it
  bool stalled = false;      ///< timed out because its progress file stopped growing
  bool cpu_limited = false;  ///< timed out by ChildOptions::cpu_limit_s (SIGXCPU)
  double limit_s = 0;        ///< when timed out: the limit that stopped it (wall or idle), seconds
  bool interrupted = false;  ///< ended because this process was interrupted (see interrupt.hpp)
  std::string error;         ///< why it did not start
  std::string out;           ///< its stdout, when ChildOptions::capture_stdout
};

struct ChildOptions {
  double timeout_s = 0;         ///< kill the group after this many seconds (0: no limit)
  std::string progress;         ///< a file the child appends to as it works ("": no watchdog)
  double idle_s = 0;            ///< kill the group when `progress` has not grown for this long
  bool capture_stdout = false;  ///< collect the child's stdout into ChildOutcome::out
  /// The idle limit while the child is in a step that measures the machine, not the kernel: before
  /// the progress file first grows (making a context), and while its last line contains
  /// `slow_marker` (a driver's compile). 0: `idle_s` throughout.
  double slow_idle_s = 0;
  std::string slow_marker;
  /// RLIMIT_CPU of the child (SIGXCPU, SIGKILL 5 s later; no core file): its end by SIGXCPU is a
  /// timeout (timed_out, cpu_limited, limit_s = this). 0: none.
  double cpu_limit_s = 0;
  uint64_t memory_limit_bytes = 0;  ///< RLIMIT_DATA of the child (0: none)
  /// The sandbox: the child's whole environment ("NAME=VALUE"; none: this process's) and its
  /// working folder ("": this process's).
  std::optional<std::vector<std::string>> env;
  std::string cwd;
  /// Namespaces, a file system of named paths, no new privileges, Landlock and seccomp
  /// (proc/sandbox.hpp); none: the child sees what this process sees. `cwd` must be among its
  /// paths.
  std::optional<SandboxSpec> sandbox;
  /// Called with the seconds since the start every few milliseconds: true ends the group
  /// (timed_out, with limit_s 0: the caller knows which of its limits it was).
  std::function<bool(double)> stop;
};

/// Sets this process's RLIMIT_CPU (SIGXCPU at `cpu_s`, SIGKILL 5 s later, no core file) and
/// RLIMIT_DATA (`memory_bytes`), each only when not 0, never above the hard limit it has: 0, or the
/// errno of the setrlimit that failed. Async-signal-safe (a forked child calls it before exec).
int setProcessLimits(double cpu_s, uint64_t memory_bytes);

/// Runs `argv` (argv[0] is the program path) in a new process group. The child gets
/// PR_SET_PDEATHSIG(SIGKILL): it dies when this process dies, even by SIGKILL. Its group is
/// killed at the time limit, when the progress file stalls, when interruptRequested() turns true,
/// and after it exits (anything it left behind). stderr (and stdout unless captured) are
/// inherited.
ChildOutcome runChild(const std::vector<std::string>& argv, const ChildOptions& options);

/// runChild with only a wall-clock limit (0: none).
ChildOutcome runChild(const std::vector<std::string>& argv, double timeout_s);

/// The same, and the group is also killed (timed_out, stalled) when the file `progress` has not
/// grown for `idle_s` seconds: a child that reports each step there is stuck in one.
ChildOutcome runChild(const std::vector<std::string>& argv, double timeout_s,
                      const std::string& progress, double idle_s);

/// "SIGSEGV" for 11, ...
std::string signalName(int sig);

// ---- interrupts: SIGINT/SIGTERM turn a flag on; work in progress ends, the report is written --

/// Installs handlers for SIGINT and SIGTERM that only record the signal (async-signal-safe). A
/// command that installs them must look at interruptRequested() between steps; every runChild
/// then ends its child's process group. Until then the default action (death) holds, and the
/// children die with this process through PR_SET_PDEATHSIG.
void installInterruptHandlers();
/// The signal received (SIGINT, SIGTERM), or 0.
int interruptRequested();
/// 128 + the signal: the exit code of an interrupted run (130 for SIGINT, 143 for SIGTERM).
int interruptExitCode();
/// Only for tests: forget a recorded signal.
void clearInterruptForTesting();

// ---- files a child leaves: JSON lines, its stderr ---------------------------------------------

/// Writes `j` as one line and flushes it, so that a parent reading after a crash sees it whole.
void writeJsonLine(std::FILE* f, const nlohmann::json& j);

/// Sends this process's stderr to `path` (the driver's and the simulator's own messages: the
/// parent quotes the file's end when the process dies). False when the file cannot be opened.
bool redirectStderr(const std::string& path);

/// The last `n` non-blank lines of a file, each cut to `width` characters, joined by newlines
/// ("" when there is none).
std::string lastLines(const std::string& path, size_t n, size_t width = 200);
/// The same of a text.
std::string lastLinesOf(const std::string& text, size_t n, size_t width = 200);

}  // namespace clh
