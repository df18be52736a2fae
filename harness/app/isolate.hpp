// Running work in a child process: a kernel can kill or hang the process that runs it, so each
// unit runs in its own process, with a wall-clock limit, and the parent survives to report it.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clh {

struct ChildOutcome {
  bool started = false;
  bool timed_out = false;
  int exit_code = -1;    ///< when it exited
  int signal = 0;        ///< when a signal ended it
  bool stalled = false;  ///< timed out because its progress file stopped growing
  std::string error;     ///< why it did not start
};

/// Runs `argv` (argv[0] is the program path) in a new process group; kills the group after
/// `timeout_s` seconds (0: no limit). stdout/stderr are inherited.
ChildOutcome runChild(const std::vector<std::string>& argv, double timeout_s);

/// The same, and the group is also killed (timed_out, stalled) when the file `progress` has not
/// grown for `idle_s` seconds: a child that reports each step there is stuck in one.
ChildOutcome runChild(const std::vector<std::string>& argv, double timeout_s,
                      const std::string& progress, double idle_s);

/// "SIGSEGV" for 11, ...
std::string signalName(int sig);

// ---- the child's side of the protocol: JSON lines to a file, its stderr to another ----------

/// Writes `j` as one line and flushes it, so that a parent reading after a crash sees it whole.
void writeJsonLine(std::FILE* f, const nlohmann::json& j);

/// Sends this process's stderr to `path` (the driver's and the simulator's own messages: the
/// parent quotes the file's end when the process dies). False when the file cannot be opened.
bool redirectStderr(const std::string& path);

/// The last `n` non-blank lines of a file, each cut to `width` characters, joined by newlines
/// ("" when there is none).
std::string lastLines(const std::string& path, size_t n, size_t width = 200);

}  // namespace clh
