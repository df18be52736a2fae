// `clharness scan` as library calls: one kernel file (no spec) under generated arguments on the
// simulator, in a child process unless asked otherwise.
#pragma once

#include <string>
#include <vector>

#include "cl/tool.hpp"
#include "scan/scan.hpp"

namespace clh::scan {

/// The options of `clharness scan` (docs/cli.md), and the hidden ones of its child.
struct ScanArgs {
  std::string file, kernel, global, local, build_options;
  std::vector<std::string> args;
  std::vector<std::string> suppress;
  std::string device_regex = "Oclgrind";
  std::string seed = "1";
  std::string json_path;
  double timeout_s = 300;
  int tries = 12;
  /// A grid of more work-items runs smaller on the simulator (scan/grid.hpp); 0: as given.
  size_t max_items = kScanMaxItems;
  bool no_isolate = false;
  bool uniform_writes = false;   // report write-write races of equal values too
  bool stub_bodiless = false;    // functions declared without a body return zero
  std::string child_out;         // hidden: the child's JSON result
  std::string child_stderr;      // hidden: where the child's stderr (the simulator's text) goes
  double child_cpu_limit_s = 0;  // hidden: the child's CPU-time limit (RLIMIT_CPU; 0: none)
  size_t child_max_groups = 0;   // hidden: at most this many work-groups a dimension (0: any)
  bool child_optimised = false;  // hidden: the simulator checks Oclgrind's optimised build
};

/// How `--timeout` is enforced on the simulator: CPU time, not the clock, so a busy machine does
/// not reach it. The kernel may use `timeout_s` seconds on each of the simulator's worker threads
/// (OCLGRIND_NUM_THREADS, else one per core); the clock stops it only at `kWallBackstop` times
/// `timeout_s`, and never before `kWallBackstopFloor` seconds (a kernel blocked without computing;
/// a short limit on a busy machine must not meet the clock first).
struct SimulatorLimits {
  double cpu_s;   ///< the child's CPU seconds (all its threads)
  double wall_s;  ///< the wall-clock backstop
};
inline constexpr double kWallBackstop = 10;
inline constexpr double kWallBackstopFloor = 600;
SimulatorLimits simulatorLimits(double timeout_s);

// The child side: the scan on the one device the regex selects, its result as JSON in a file.
/// The child side: the scan in this process, its result as JSON in `child_out`.
int runChildScan(const clh::ToolConfig& config, const ScanArgs& a);

/// The scan in a child process (the simulator may crash); prints the result and returns an
/// ExitCode (1 when something was found).
int runScanCommand(const clh::ToolConfig& config, const ScanArgs& a);

// In one process, for --no-isolate: a kernel that crashes ends the command.
/// The scan in this process (`--no-isolate`).
int runInProcess(const clh::ToolConfig& config, ScanArgs a);

}  // namespace clh::scan
