// `clharness semantics` as a library call: the driver checks of each device as a matrix, compared
// with or written into the driver baselines.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cl/devices.hpp"
#include "cl/tool.hpp"
#include "proc/job.hpp"

namespace clh::drivers {

/// The options of `clharness semantics` (docs/semantics.md), and the hidden ones of its child.
struct SemanticsArgs {
  std::string device_regex;
  std::string json_path;
  std::string baseline_path;
  std::string write_baselines;
  std::string html_path;        ///< the matrix as one HTML page (drivers/html.hpp)
  std::string launch_family;    // hidden: child mode, see runIsolatedLaunchRows
  bool isolate_launch = false;  // hidden: every launch family in a child of its own
  std::string shard;            ///< "K/N": part K of N of the devices (by identity); empty: env's
};

/// The driver checks of every device `devices` selects, as a matrix; compared with the baselines
/// or written into them. `command_path` re-runs this command for a crash-prone launch family.
/// Returns an ExitCode (1 a change from the baseline, 2 a file that cannot be used, 3 no device).
int runSemantics(const SemanticsArgs& args, const std::vector<std::string>& command_path,
                 const std::function<std::vector<clh::DeviceInfo>(const std::string&)>& devices);

/// The job of a check run's driver section (`__semantics`, run/driver_section.cpp): the driver
/// checks of the one device `device` (a regular expression) selects, every launch family in a
/// process of its own when `isolate_launch`. Its result: the matrix JSON (drivers/matrix.hpp).
struct SemanticsJob {
  std::string device;
  bool isolate_launch = false;
};
void to_json(nlohmann::json& j, const SemanticsJob& job);
void from_json(const nlohmann::json& j, SemanticsJob& job);

/// The child side of job `__semantics`; returns an ExitCode (3: no such device).
int runSemanticsChild(const clh::ToolConfig& config, const SemanticsJob& job,
                      clh::JobChannel& channel);

}  // namespace clh::drivers
