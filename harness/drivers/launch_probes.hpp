// Launch-configuration rows of the semantics matrix: checkLaunchShapes() run on built-in kernels,
// one row per shape family ("launch.over_device_max", ...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cl/devices.hpp"
#include "drivers/checks.hpp"
#include "launch/shapes.hpp"

namespace clh::drivers {

struct LaunchCheckOptions {
  int shapes_per_kernel = 100;
  uint64_t seed = 20261121;  ///< fixed, so a baseline compares like with like
  /// Only these families (e.g. {"zero_local"}); empty: all but the crash-prone ones. Families
  /// that are not crash-prone get the shapes they have in that run of all of them (the rest are
  /// drawn and not launched); a crash-prone family draws every shape from itself.
  std::vector<std::string> families;
};

/// Families whose shapes have killed a driver's process (see ShapeOptions::zero_local): run them
/// only in a child process, through runIsolatedLaunchRows().
const std::vector<std::string>& crashProneFamilies();

/// The rows runLaunchChecks() can produce, in order (a row whose family cannot exist for a device,
/// e.g. over_kernel_max when the kernel's maximum is the device's, is skipped there).
const std::vector<CheckInfo>& launchChecks();

/// Builds the built-in kernels (an index writer that tolerates offsets, one with a __local
/// argument, one with reqd_work_group_size, one with a static __local array), draws shapes for
/// each and folds the results by family: conforms when every shape of the family got an allowed
/// outcome (a launch that succeeded must have run every work-item: each kernel writes one int per
/// work-item), deviates with the first deviating shape otherwise. Never throws for a driver's
/// behaviour; a kernel that does not build makes its rows skipped.
std::vector<CheckResult> runLaunchChecks(const clh::DeviceInfo& device,
                                         const LaunchCheckOptions& options = {});

/// One probe kernel's shapes as runLaunchChecks() launched them, each with its outcome.
struct ProbeShapes {
  std::string kernel;
  std::vector<launch::ShapeResult> results;
};

/// The shapes behind runLaunchChecks()'s rows, kernel by kernel: the same program, shapes and
/// seeds (the program is the one a run's driver checks build, so a driver's kernel cache holds
/// it once). Throws when the probes cannot be set up (std::runtime_error with the build log).
std::vector<ProbeShapes> runLaunchProbes(const clh::DeviceInfo& device,
                                         const LaunchCheckOptions& options = {});

/// The crash-prone families' rows, each run by a child process: `child_argv` is a command line
/// that runs runLaunchChecks(device, {families = {family}}) and prints toJson(rows) (see
/// launchRowsJson) on stdout, with "{family}" in it replaced by the family. A child killed by a
/// signal or exiting non-zero makes its row deviate ("got the process killed by SIGABRT").
/// `env`: the children's whole environment (none: this process's), e.g. the device's driver
/// alone (cl/driver_alone.hpp), as a unit's process has it.
std::vector<CheckResult> runIsolatedLaunchRows(
    const std::vector<std::string>& child_argv, int timeout_seconds = 300,
    const std::vector<std::string>& families = crashProneFamilies(),
    const std::optional<std::vector<std::string>>& env = std::nullopt);

/// Every launch family of the rows, in row order.
std::vector<std::string> launchFamilies();

/// A --device regex that matches exactly this device's displayName() (for a child's command line).
std::string exactDeviceRegex(const clh::DeviceInfo& device);

/// What the child prints: the rows as JSON (an array of check objects), and the parent's reader.
std::string launchRowsJson(const std::vector<CheckResult>& rows);
std::vector<CheckResult> launchRowsFromJson(const std::string& text);

}  // namespace clh::drivers
