// The tool's resolved configuration (where it runs from, its drivers) and the device lookups every
// command and child process share: a library value, so a test or another project needs no CLI.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cl/ctest_resources.hpp"
#include "cl/devices.hpp"
#include "sim/oclgrind_session.hpp"

namespace clh {

/// Exit codes (docs/cli.md).
enum ExitCode : int { kExitOk = 0, kExitCheckFailed = 1, kExitUsage = 2, kExitNoDevice = 3 };

/// What a run needs from its environment; only main() reads argv and the environment to make one.
struct ToolConfig {
  std::string exe;        ///< this program, for child processes
  std::string repo_root;  ///< where `source:` paths and the default specs/ resolve
  IcdConfig icd;
  std::string tool_name = "clharness";  ///< how replay commands name the tool
  /// The CTEST_RESOURCE_GROUP* variables ctest set for this test, for `--device ctest:TYPE`.
  EnvironmentVariables ctest_resources;
  /// CLHARNESS_SANDBOX_REFUSED, for tests only: `grade` acts as on a machine that refuses the
  /// grading sandbox's namespaces, this text being the reason ("": ask the machine).
  std::string sandbox_refused;
};

/// Registers the ICDs (once) and returns the devices `--device WHAT` selects (selectDevices), or
/// for `ctest:TYPE` the device of the row ctest allocated (ctestAllocatedRow, whose
/// std::invalid_argument passes through: a usage error). When WHAT selects none of the devices
/// found, says so on stderr with the numbered list of them.
std::vector<DeviceInfo> findDevices(const ToolConfig& config, const std::string& what);

/// The device a parent process named by its DeviceInfo::identity(), found again in a child
/// process. Throws std::runtime_error listing the devices found when it is not among them.
DeviceInfo findDeviceAgain(const ToolConfig& config, const std::string& identity);

/// "Platform: Device (driver V)": how a driver is named where it failed.
std::string driverName(const DeviceInfo& device);

/// Reads a run seed (decimal, or 0x hex); false when `text` is not one whole unsigned integer.
bool parseSeed(const std::string& text, uint64_t& out);

/// The Oclgrind session of a process that runs on a simulator (nullptr for a real device): its
/// checks on, its plugin loaded, findings logged to `log_path`. Oclgrind reads the environment
/// when a context is created, so this comes before the DeviceSession. Throws
/// std::runtime_error naming where it looked when the plugin is not found. `one_work_item`: every
/// case of the process launches a single work-item (oneWorkItemOnSimulator), so the data-race
/// check is left off, with kOneWorkItemNote for the report.
std::unique_ptr<OclgrindSession> simulatorSession(const DeviceInfo& dev,
                                                  const std::string& log_path,
                                                  bool one_work_item = false);

}  // namespace clh
