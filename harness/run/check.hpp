// `clharness check` as a library call: every spec on every selected device, each unit in its own
// process, then the driver section of each device, the reports and the exit code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cl/tool.hpp"
#include "core/program_budget.hpp"
#include "report/formats.hpp"

namespace clh {

struct CheckOptions {
  std::vector<std::string> paths;
  std::string device_regex;
  int cases = 0;
  uint64_t seed = 1;
  std::optional<std::string> sizes;
  /// The report files: --json F, --junit F and --report FORMAT=F, in the order given.
  std::vector<ReportOutput> reports;
  double timeout_s = 600;
  bool isolate = true;
  bool shrink = true;
  /// Distinct programs (build-options texts) a unit's random cases may build; 0: no limit
  /// (core/program_budget.hpp).
  int build_programs = kDefaultBuildPrograms;
  /// Units run at once (each in its own processes); a GPU still takes one at a time.
  int jobs = 1;
  /// Units at once on one CPU device, within `jobs` (0: no limit of its own). Measured on a
  /// 16-core host, more units at once were faster, with PoCL's kernel cache empty or full
  /// (docs/performance.md); a limit is for a machine where they contend.
  int cpu_device_jobs = 0;
  std::string buffer_mode = "default";  ///< a BufferMode name, "all", or "default" (the spec's)
  std::string read_mode = "default";    ///< a ReadMode name, "all", or "default" (the spec's)
  /// Launch shapes per spec and device (a unit of family "launch" each); 0: none. Not run when
  /// `sizes` replays one case.
  int launch_shapes = 100;
  /// Run the driver checks (clharness semantics) once per device for the driver section.
  bool driver_checks = true;
  /// On a real device with two or more units, compile the programs they will build first, in one
  /// process of its own (run/prebuild.hpp); off: each unit's process compiles its own.
  bool compile_ahead = true;
  /// Regression mode (`--baseline [DIR]`): driver findings that are new or regressed against the
  /// device's baseline fail the run. Without it the default folder only marks findings.
  bool regression = false;
  std::string baseline_dir;    ///< empty: <root>/baselines
  std::string write_baseline;  ///< record each device's driver section as a baseline in DIR
  bool per_model = false;      ///< recorded baselines name the device model (an override)
  /// Seconds the simulator may take to replay a real device's smallest failing case and name its
  /// statement (run/sim_replay.hpp); 0: no replay.
  double replay_budget_s = 60;
  /// This run's part of the specs: every spec whose index, in name order, is shard_index modulo
  /// shard_count (docs/ci.md); shard_count 1: all.
  int shard_index = 0;
  int shard_count = 1;
  /// Go on from the journal of an interrupted run with the same options (docs/cli.md).
  bool resume = false;
  /// A sanitized unit per spec and real device (`SPEC [sanitize]`, docs/sanitizer.md).
  bool sanitize = false;
  /// Set by run/ for one unit, not an option: the unit's child runs this sanitizer plan
  /// (sanitize/cases.hpp) instead of the spec's random cases.
  std::string sanitize_plan;
};

/// Runs the check and writes its reports; returns an ExitCode (0 every unit as expected, 1 a
/// check failed, 2 bad usage or spec, 3 no usable device, 130/143 interrupted).
int runCheck(const ToolConfig& config, const CheckOptions& options);

}  // namespace clh
