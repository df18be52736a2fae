// Compiling ahead: the programs a check run's units will build on a real device, built first in
// one child process, so that a driver with a kernel cache (PoCL) pays its once-per-process start
// of the compiler once, not once in every unit's process (docs/performance.md, "Compiling ahead").
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cl/tool.hpp"
#include "core/spec.hpp"
#include "proc/job.hpp"

namespace clh {

/// One program to build: the kernel file, the options text, the kernels created from it, and
/// whether its binaries are asked for too: a driver that compiles a kernel once for every local
/// size (PoCL) then compiles its code for any local size, which a unit run without PoCL's
/// work-group specialisation uses (cl/unit_environment.hpp).
struct AheadProgram {
  std::string source;
  std::string options;
  std::vector<std::string> kernels;
  bool binaries = false;
};
void to_json(nlohmann::json& j, const AheadProgram& p);
void from_json(const nlohmann::json& j, AheadProgram& p);

/// The programs to compile ahead on one device, in the order of the specs, and for each spec how
/// many of them must be built before its units start (`ready_after[i]` for `specs[i]`).
struct AheadPlan {
  std::vector<AheadProgram> programs;
  std::vector<size_t> ready_after;
};

/// What the units of `specs` on the real device `dev` will build, as far as it is known before
/// they run, each once: a spec's cases build its options where they name no size (with their
/// binaries: those cases run unspecialised); with `launches`, its launch family builds the options
/// of launchCaseSizes(`seed`) and their -cl-std variants (launch::familyBuildOptions). A case whose
/// options name sizes draws its program as it runs, and is not compiled ahead.
AheadPlan programsAhead(const std::vector<Spec>& specs, const DeviceInfo& dev, uint64_t seed,
                        bool launches);

/// The child's job (`__prebuild`): one device, its programs.
struct PrebuildJob {
  std::string device_id;  ///< DeviceInfo::identity() of the parent's device
  std::vector<AheadProgram> programs;
};
void to_json(nlohmann::json& j, const PrebuildJob& job);
void from_json(const nlohmann::json& j, PrebuildJob& job);

/// The child side: builds each program in turn, an event `built` (`ok`: whether it built) after
/// each. A build that fails is counted, never reported: the unit that builds it says why. It
/// stops after the second program that built where the first cost no more than twice its CPU
/// time (its result's "stopped" says why): the driver started no compiler that a unit would start
/// again (its cache had the programs), so there is nothing to save.
int runPrebuildChild(const ToolConfig& config, const PrebuildJob& job, JobChannel& channel);

/// How compiling ahead went on one device: the programs asked for, built and failed, its seconds,
/// and why it ended early ("" when it ran to its end). Never a verdict: a unit whose program was
/// not built ahead builds it itself.
struct PrebuildOutcome {
  size_t programs = 0;
  int built = 0, failed = 0;
  double seconds = 0;
  std::string ended_early;
  std::string stopped;  ///< why the child stopped with nothing to save (runPrebuildChild), or ""
  /// The line the run prints for it.
  std::string line(const std::string& device) const;
};

/// Runs the job in a child of `config.exe` with the device's driver alone, ended after
/// `timeout_s` (then the units build what is left); `on_built` gets the number of programs the
/// child has finished, built or not, as they come (from the thread that waits on the child).
PrebuildOutcome compileAhead(const ToolConfig& config, const DeviceInfo& dev,
                             std::vector<AheadProgram> programs,
                             const std::filesystem::path& scratch, double timeout_s,
                             const std::function<void(size_t finished)>& on_built = {});

/// A check run's compiling ahead: which real devices do it, and whether a spec's units on a device
/// may start (read by the run's threads while a task compiles).
class AheadCompiles {
 public:
  /// Plans it on each real device when `on` and the run has two or more units that build in
  /// processes of their own on it (`units_per_spec` each, `specs.size()` specs).
  AheadCompiles(const std::vector<Spec>& specs, const std::vector<DeviceInfo>& devices,
                uint64_t seed, bool launches, size_t units_per_spec, bool on);
  /// The devices that compile ahead, a task each.
  size_t tasks() const { return plans_.size(); }
  size_t deviceOf(size_t task) const { return plans_[task].first; }
  /// Whether spec `spec`'s units on device `device` may start: its programs are built, or the
  /// device compiles nothing ahead, or its task has ended.
  bool ready(size_t device, size_t spec) const;
  /// Runs task `task` in a child (compileAhead), releasing its device's specs as their programs
  /// come and all of them when it ends.
  PrebuildOutcome run(size_t task, const ToolConfig& config, const std::filesystem::path& scratch,
                      double timeout_s);

 private:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  const std::vector<DeviceInfo>& devices_;
  std::vector<std::pair<size_t, AheadPlan>> plans_;  ///< device, its plan
  std::vector<size_t> plan_of_;                      ///< device -> its index in plans_, or kNone
  /// Device d's programs built so far; kNone: none are to be, or its task has ended.
  std::vector<std::atomic<size_t>> built_;
};

}  // namespace clh
