// One device's driver section of a `clharness check` report: the driver checks' rows and the
// launch families' failures that are the driver's, each marked against the device's baseline.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "drivers/baseline.hpp"
#include "launch/family.hpp"

namespace clh::drivers {

/// What the section is built from.
struct SectionInput {
  const DeviceInfo* device = nullptr;
  /// The driver checks' rows (clharness semantics); empty when they did not run (`notes` say why).
  std::vector<drivers::CheckResult> rows;
  std::string rows_replay;  ///< the command that runs the driver checks on this device
  /// Every launch family run on this device.
  std::vector<const launch::LaunchFamilyResult*> families;
  /// The command that replays one shape of a family.
  std::function<std::string(const launch::LaunchFamilyResult&, int shape)> replay;
  std::vector<std::string> notes;
};

/// A driver check's verdict in a report: deviates split into crashed and hung when the process
/// running the check died or hung.
DriverVerdict driverVerdictOf(const drivers::CheckResult& r);

/// A driver check's row as a report's finding (no mark); `replay` for one that did not skip.
DriverFinding rowFinding(const drivers::CheckResult& r, const std::string& replay);

/// The section, each finding marked against `baseline`; with none, every finding is new.
DriverReport buildDriverReport(const SectionInput& input, const Baseline* baseline,
                               const std::string& baseline_note);

/// What a run's section gives a new baseline: its rows and the launch failures charged to the
/// driver (reasons of `keep`'s entries with the same key kept).
Baseline recordBaseline(const SectionInput& input, const Baseline* keep, bool per_model);

/// The finding id of a launch failure key ("shape.KIND RULES -> GOT[, results: KINDS]").
std::string failureId(const launch::KnownDeviation& key);

/// Whether two runs of one driver check gave the same outcome (a process that died is one outcome
/// whatever the signal or hang; details such as timings aside).
bool sameOutcome(const drivers::CheckResult& a, const drivers::CheckResult& b);

/// The launch failure keys of a family that are the driver's (one per shape and key).
std::vector<std::pair<launch::KnownDeviation, const launch::ShapeCheck*>> driverFailures(
    const launch::LaunchFamilyResult& family);

}  // namespace clh::drivers
