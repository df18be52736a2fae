// Running work in a child process: a kernel can kill or hang the process that runs it, so each
// unit runs in its own process, with a wall-clock limit, and the parent survives to report it.
#pragma once

#include <string>
#include <vector>

namespace clh {

struct ChildOutcome {
  bool started = false;
  bool timed_out = false;
  int exit_code = -1;  ///< when it exited
  int signal = 0;      ///< when a signal ended it
  std::string error;   ///< why it did not start
};

/// Runs `argv` (argv[0] is the program path) in a new process group; kills the group after
/// `timeout_s` seconds (0: no limit). stdout/stderr are inherited.
ChildOutcome runChild(const std::vector<std::string>& argv, double timeout_s);

/// "SIGSEGV" for 11, ...
std::string signalName(int sig);

}  // namespace clh
