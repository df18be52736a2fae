// `clharness scan` as library calls: one kernel file (no spec) under generated arguments on the
// simulator, in a child process unless asked otherwise.
#pragma once

#include <string>
#include <vector>

#include "cl/tool.hpp"
#include "proc/job.hpp"
#include "scan/scan.hpp"

namespace clh::scan {

/// The options of `clharness scan` (docs/cli.md).
struct ScanArgs {
  std::string file, kernel, global, local, build_options;
  std::vector<std::string> args;
  std::vector<std::string> suppress;
  std::string device_regex = "Oclgrind";
  std::string seed = "1";
  std::string json_path;
  double timeout_s = 300;  ///< the whole scan's limit (scan/stopped.hpp's ScanBudget)
  int tries = 12;
  /// A grid of more work-items runs smaller on the simulator (scan/grid.hpp); 0: as given.
  size_t max_items = kScanMaxItems;
  bool no_isolate = false;
  bool uniform_writes = false;  // report write-write races of equal values too
  bool stub_bodiless = false;   // functions declared without a body return zero
  bool sanitize = false;        // run the kernel instrumented by the sanitizer
};

/// The job of a scan's child (`__scan`): the options as given, the seed read once by the parent,
/// and the device (its identity). Its answer: a ScanResult, or a `usage_error` event.
struct ScanJob {
  ScanArgs args;
  uint64_t seed = 1;
  /// After a timeout: at most this many work-groups a dimension (0: any), then the simulator
  /// checking the optimised build (the later stages of runScanCommand).
  size_t max_groups = 0;
  bool optimised = false;
  /// The child's CPU-time limit: launches after the defaults stop before they would pass it.
  double cpu_budget_s = 0;
};
void to_json(nlohmann::json& j, const ScanJob& job);
void from_json(const nlohmann::json& j, ScanJob& job);

/// How `--timeout` is enforced on the simulator: CPU time, not the clock, so a busy machine does
/// not reach it. The whole scan, every child together, may use `timeout_s` seconds on each of the
/// simulator's worker threads (OCLGRIND_NUM_THREADS, else one per core; ScanBudget shares them);
/// the clock stops it only at `kWallBackstop` times `timeout_s` from its start, and never before
/// `kWallBackstopFloor` seconds (a kernel blocked without computing; a short limit on a busy
/// machine must not meet the clock first).
struct SimulatorLimits {
  double cpu_s;   ///< the child's CPU seconds (all its threads)
  double wall_s;  ///< the wall-clock backstop
};
inline constexpr double kWallBackstop = 10;
inline constexpr double kWallBackstopFloor = 600;
SimulatorLimits simulatorLimits(double timeout_s);

/// The child side of job `__scan`: the scan on the one device the regex selects, in this process.
int runChildScan(const clh::ToolConfig& config, const ScanJob& job, clh::JobChannel& channel);

/// The scan in a child process (the simulator may crash); prints the result and returns an
/// ExitCode (1 when something was found). On SIGINT or SIGTERM the child's process group ends, the
/// report says what was found before and which launches did not run, and the exit code is
/// interruptExitCode() (130, 143).
int runScanCommand(const clh::ToolConfig& config, const ScanArgs& a);

// In one process, for --no-isolate: a kernel that crashes ends the command.
/// The scan in this process (`--no-isolate`).
int runInProcess(const clh::ToolConfig& config, ScanArgs a);

}  // namespace clh::scan
