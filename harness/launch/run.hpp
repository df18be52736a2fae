// The launch family of one spec on one device, run in child processes (job `__launch`) so a
// shape that kills the driver's process is recorded and the next child goes on after it. Shared
// by `clharness launch` (its table and baselines) and `clharness check` (a unit per spec x device).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cl/tool.hpp"
#include "core/result.hpp"
#include "core/spec.hpp"
#include "launch/family.hpp"
#include "launch/known.hpp"
#include "proc/job.hpp"

namespace clh {

struct LaunchRunOptions {
  int shapes = 100;
  int shape = -1;  ///< replay only this shape; -1: shapes [0, shapes)
  uint64_t seed = 1;
  bool no_results = false;
  bool simulator_checks = false;
  std::vector<std::string> kinds;
  double timeout_s = 900;        ///< per child process
  double shape_timeout_s = 30;   ///< one shape, its result check included
  double build_timeout_s = 300;  ///< making a context, or one compile of the driver's
};

/// The job of a launch child (`__launch`): one spec's shapes [first, shapes) on one device, its
/// events `ready`, `start`, `shape`, then `restart` or `done` (launch_command/command.cpp runs it).
struct LaunchJob {
  std::string spec;
  std::string device_id;  ///< DeviceInfo::identity() of the parent's device
  int shapes = 100, first = 0;
  uint64_t seed = 1;
  bool no_results = false;
  bool simulator_checks = false;
  std::vector<std::string> kinds;
  /// Enqueue no shape that must run (LaunchFamilyOptions::skip_must_run); each is sent as the
  /// event `not_run`.
  bool skip_must_run = false;
};
void to_json(nlohmann::json& j, const LaunchJob& job);
void from_json(const nlohmann::json& j, LaunchJob& job);

/// One spec's family on one device, as gathered from its child processes.
struct FamilyRun {
  const Spec* spec = nullptr;
  const DeviceInfo* device = nullptr;
  launch::LaunchFamilyResult result;
  int restarts = 0;  ///< child processes that died on a shape and were replaced
  /// Children that stopped after a shape whose command failed (a spoilt context) and were
  /// replaced.
  int fresh_starts = 0;
  int confirmed = 0;  ///< shapes rerun alone after a first try ran past the shape limit
  /// Shapes that must run and were not launched after kExpectedDeathsBeforeSkipping of them in a
  /// row died as the spec expects of its kernel (the family's notes say so).
  std::vector<int> not_run;
  double seconds = 0;
  std::string error;  ///< the family could not run at all (not a driver's answer)
};

/// Shapes that must run and died in a row as the spec expects of its kernel (a crash it names)
/// after which the family launches no more shapes that must run: each would cost a new process to
/// die the same way. Shapes the specification forbids still run and are judged.
inline constexpr int kExpectedDeathsBeforeSkipping = 3;

/// Runs the shapes in child processes of `config.exe`, writing their JSON lines under `scratch`.
FamilyRun runLaunchIsolated(const ToolConfig& config, const LaunchRunOptions& options,
                            const Spec& spec, const DeviceInfo& device,
                            const std::filesystem::path& scratch);

/// Shapes with a failure that `known` does not cover.
int newFailures(const launch::LaunchFamilyResult& result, const launch::KnownDeviations& known);
/// Shapes with any failure, known or not.
int failingShapes(const launch::LaunchFamilyResult& result);
/// The family could not be set up for a reason the spec does not expect (a kernel "as published"
/// that does not build is expected to have no shapes).
bool unexpectedFailure(const FamilyRun& run);

/// The command that replays one shape (`clharness launch SPEC --device ^NAME$ --seed S --shape I`).
std::string launchReplay(const std::string& tool, const FamilyRun& run, int shape);

/// The family as a unit of `clharness check` (family "launch"), the kernel's verdict: pass when
/// no launch that must run failed in a way that is the kernel's (launch::chargedToDriver); fail
/// with one finding per kind of such failure (the first shape is the failing case, with its replay
/// command); skipped when the case could not be set up (the unit of cases reports why);
/// tool_error, naming the driver, when the child processes could not run the family.
UnitResult launchUnit(const ToolConfig& config, const FamilyRun& run, uint64_t seed);

}  // namespace clh
