// The driver section of one device in a check run: the driver checks (`clharness semantics`) in a
// child process, the launch families' failures that are the driver's, marked against the device's
// baseline; in regression mode each new or regressed finding is looked at once more.
#pragma once

#include <deque>
#include <filesystem>
#include <string>

#include "core/result.hpp"
#include "drivers/section.hpp"
#include "launch/run.hpp"
#include "run/check.hpp"

namespace clh {

/// The driver checks of one device: `clharness semantics` in a child process (when the driver
/// takes that process down, once more with each launch family in a process of its own), their rows
/// and notes on how they ran. A check run runs them beside its units, as a task of the device.
struct DriverRows {
  std::vector<drivers::CheckResult> rows;
  std::vector<std::string> notes;
};
DriverRows runDeviceDriverChecks(const ToolConfig& config, const CheckOptions& options,
                                 const DeviceInfo& device, const std::filesystem::path& scratch);

/// One device's section with its driver checks' rows; null `driver_rows` leaves them out (with a
/// note: --no-driver-checks). `baseline` may be null (findings are then unmarked, and the report
/// says so via `note`). With `options.write_baseline` the section is also recorded as a baseline
/// file there.
DriverReport deviceDriverSection(const ToolConfig& config, const CheckOptions& options,
                                 const DeviceInfo& device, const drivers::Baseline* baseline,
                                 const std::string& baseline_note,
                                 const std::deque<FamilyRun>& families,
                                 const std::filesystem::path& scratch,
                                 const DriverRows* driver_rows);

/// Lists in `section` every unit of its device that died in the driver's compile step at a launch
/// (cl/compile_watch.hpp): the unit is a tool error, the crash the driver's finding. Not compared
/// with the baseline (a baseline records the driver checks and launch shapes).
void addLaunchCompileCrashes(const std::vector<UnitResult>& units, DriverReport& section);

}  // namespace clh
