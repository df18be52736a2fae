// The child's side of grading: one submission on one device, in a process of its own (a student's
// kernel may hang or kill it). Its progress and results go out as JSON events, one per line, so
// that the parent still knows the running case when the process dies; collectDeviceRun reads them.
#pragma once

#include <functional>
#include <istream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cl/devices.hpp"
#include "grade/grade.hpp"

namespace clh::grade {

/// What a child is asked to do: the job `__grade-one` of proc/job.hpp.
struct DeviceJob {
  std::string spec_file;   ///< the assignment's spec (its source is the reference solution)
  std::string submission;  ///< the student's kernel file
  std::string device_id;   ///< DeviceInfo::identity() of the parent's device
  uint64_t seed = 1;
  int cases = 0;                   ///< random cases; 0: the spec's own for the device kind
  std::optional<Sizes> sizes;      ///< replay exactly this case instead of searching
  std::optional<SpeedRule> speed;  ///< also time the speed case (real devices only)
  /// On the simulator: replay a real device's failing case with its wrong elements watched.
  std::optional<SimulatorTrace> trace;
  /// Time the reference solution at this case first (a confirming rerun names its time).
  std::optional<Sizes> reference_first;
  /// Only the speed case (a losing ratio measured again alone): no random-size search.
  bool speed_only = false;
  /// Non-empty: only the sanitizer's plan (sanitize/cases.hpp) on this real device, its unit
  /// (family "sanitize") as the `unit` event.
  std::string sanitize_plan;
};

void to_json(nlohmann::json& j, const DeviceJob& job);
void from_json(const nlohmann::json& j, DeviceJob& job);

/// One event: {"event": "case_start" | "case_end" | "build_start" | "build_end" | "unit" | "speed"
/// | "error", ...} (grade/time_limits.hpp reads them as they come).
using EventSink = std::function<void(const nlohmann::json&)>;

/// Runs the assignment's spec with the submission as its source on `device`: the random-size
/// search (shrunk to the smallest failing case), then, when asked and the kernel built, the speed
/// case for the submission and the reference solution in turns, round by round (`speed_only`:
/// that case alone). `simulator_log`: the Oclgrind
/// plugin's log file for a simulator device. Throws for a spec or environment that cannot be used.
void runDeviceJob(const DeviceInfo& device, const DeviceJob& job, const std::string& repo_root,
                  const std::string& simulator_log, const EventSink& emit);

/// Resource limits of a child (the grader gives them to runChild, which sets them before exec).
struct Limits {
  double cpu_seconds = 0;     ///< RLIMIT_CPU (SIGXCPU, then SIGKILL 5 s later); 0: none
  uint64_t memory_bytes = 0;  ///< RLIMIT_DATA: heap and private writable mappings; 0: none
};
/// Applies `limits` to this process (proc's setProcessLimits); throws std::system_error when
/// setrlimit refuses.
void applyLimits(const Limits& limits);

/// How the parent saw a child end.
struct ChildEnd {
  bool started = true;
  bool timed_out = false;
  int exit_code = 0;
  int signal = 0;
  std::string error;   ///< why it did not start
  double limit_s = 0;  ///< the wall-clock limit it had
  /// The reference solution was seen to build on this device: a compiler that crashes on the
  /// submission's source was provoked by that source (a build finding), else it is the driver's.
  bool reference_built = false;
  std::string log_tail;  ///< the end of what it printed (kept with a crash or tool failure)
};

/// The device a run was on, as the parent names it.
struct RunDevice {
  std::string name;  ///< display name
  std::string kind;
  bool simulator = false;
  bool sanitized = false;  ///< the sanitizer's run (DeviceRun::sanitized)
};

/// Reads a child's events and how it ended into a DeviceRun: a run that ended early gets a lost
/// case holding a timeout, crash or tool_error finding, with the sizes of the case then running.
/// A simulator that crashes is the simulator's failure (tool_error), never the student's. A child
/// that dies between build_start and build_end crashed the compiler: a build_error where the
/// reference solution builds on the device, else the driver's tool_error (docs/grading.md).
DeviceRun collectDeviceRun(const std::vector<nlohmann::json>& events, const ChildEnd& end,
                           const RunDevice& device);
/// The same, the events as JSON lines in a stream.
DeviceRun collectDeviceRun(std::istream& events, const ChildEnd& end, const RunDevice& device);

/// "SIGSEGV" for 11.
std::string signalWord(int sig);

}  // namespace clh::grade
