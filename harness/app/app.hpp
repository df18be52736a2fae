// The tool's resolved configuration and its commands. Only main() reads argv and the environment;
// every command receives this value.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cl/devices.hpp"
#include "cl/session.hpp"
#include "sim/oclgrind_session.hpp"

namespace clh {

/// Exit codes (docs/cli.md).
enum ExitCode : int { kExitOk = 0, kExitCheckFailed = 1, kExitUsage = 2, kExitNoDevice = 3 };

struct AppConfig {
  std::string exe;        ///< this program, for child processes
  std::string repo_root;  ///< where `source:` paths and the default specs/ resolve
  IcdConfig icd;
  std::string tool_name = "clharness";  ///< how replay commands name the tool
};

/// Registers the ICDs (once) and returns the devices `--device WHAT` selects (selectDevices).
/// When WHAT selects none of the devices found, says so on stderr with the numbered list of them.
std::vector<DeviceInfo> findDevices(const AppConfig& config, const std::string& what);

/// The device a parent process named by its DeviceInfo::identity(), found again in a child
/// process. Throws std::runtime_error listing the devices found when it is not among them.
DeviceInfo findDeviceAgain(const AppConfig& config, const std::string& identity);

/// The end of a command's CLI11 callback: runs `body`; an exception becomes "clharness NAME: ..."
/// on stderr (a bad --device regular expression said as such) and exit code 2; the code then goes
/// to main through CLI::RuntimeError (0 included: nothing else runs after a command's callback).
[[noreturn]] void finishCommand(const std::string& name, const std::function<int()>& body);

/// Reads a run seed (decimal, or 0x hex); false when `text` is not one whole unsigned integer.
bool parseSeed(const std::string& text, uint64_t& out);

/// The Oclgrind session of a process that runs on a simulator (nullptr for a real device): its
/// checks on, its plugin loaded, findings logged to `log_path`. Oclgrind reads the environment
/// when a context is created, so this comes before the DeviceSession. Throws
/// std::runtime_error naming where it looked when the plugin is not found.
std::unique_ptr<OclgrindSession> simulatorSession(const DeviceInfo& dev,
                                                  const std::string& log_path);

struct CheckOptions {
  std::vector<std::string> paths;
  std::string device_regex;
  int cases = 0;
  uint64_t seed = 1;
  std::optional<std::string> sizes;
  std::string json_path, junit_path;
  double timeout_s = 600;
  bool isolate = true;
  bool shrink = true;
  /// Units run at once (each in its own processes); a GPU still takes one at a time.
  int jobs = 1;
  std::string buffer_mode = "default";  ///< a BufferMode name, "all", or "default" (the spec's)
  std::string read_mode = "default";    ///< a ReadMode name, "all", or "default" (the spec's)
  /// Launch shapes per spec and device (a unit of family "launch" each); 0: none. Not run when
  /// `sizes` replays one case.
  int launch_shapes = 100;
  /// Run the driver checks (clharness semantics) once per device for the driver section.
  bool driver_checks = true;
  /// Regression mode (`--baseline [DIR]`): driver findings that are new or regressed against the
  /// device's baseline fail the run. Without it the default folder only marks findings.
  bool regression = false;
  std::string baseline_dir;    ///< empty: <root>/baselines
  std::string write_baseline;  ///< record each device's driver section as a baseline in DIR
  bool per_model = false;      ///< recorded baselines name the device model (an override)
  /// Go on from the journal of an interrupted run with the same options (docs/cli.md).
  bool resume = false;
};

/// The run modes `--buffer-mode` and `--read-mode` ask for (one entry per combination); throws
/// std::invalid_argument naming the bad word.
std::vector<RunOptions> runModes(const std::string& buffer_mode, const std::string& read_mode);

int runCheck(const AppConfig& config, const CheckOptions& options);
int runDevices(const AppConfig& config, const std::string& regex, bool json);

/// The child side of an isolated unit: runs one spec on one device, writing JSON lines to `out`.
struct UnitChildOptions {
  std::string spec_file;
  std::string device_id;  ///< DeviceInfo::identity() of the parent's device
  uint64_t seed = 1;
  int cases = 0;
  std::optional<std::string> sizes;
  bool shrink = true;
  std::string out;
  std::string buffer_mode = "default", read_mode = "default";
};
int runUnitChild(const AppConfig& config, const UnitChildOptions& options);

/// Prints the CTest script that registers one test per spec x device (used by tests/).
int runCtestScript(const AppConfig& config, const std::vector<std::string>& paths,
                   const std::string& exe);

}  // namespace clh
