// A device session: one context and profiling queue on one device, with a program cache keyed by
// (source, build options), a pool of guarded device buffers, and the runner of one case of a
// spec. A session can start afresh (reset) after a command failed, as some drivers leave the
// context unusable then.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "cl/devices.hpp"
#include "cl/memory.hpp"
#include "cl/opencl.hpp"
#include "core/case.hpp"
#include "core/reference.hpp"
#include "core/result.hpp"
#include "core/spec.hpp"

namespace clh {

class OclgrindSession;

/// A built program with its kernels created, or the finding that says why not.
struct BuildOutcome {
  std::optional<cl::Program> program;
  /// Mutable: a case sets a kernel's arguments on the kernel itself (a copy would be the same
  /// cl_kernel, set the same, for a retain and a release in the driver).
  mutable std::map<std::string, cl::Kernel> kernels;
  std::string log;                 ///< the device's build log (also on success: warnings)
  std::string options;             ///< the options actually used (a simulator retry adds some)
  std::optional<Finding> failure;  ///< build_error, or tool_error when the simulator failed
};

/// Where the wall time of cases went, phase by phase, in seconds summed over the cases (for
/// bench/: the harness's cost against a bare loop). `read` includes waiting for the launches.
struct CasePhases {
  double resolve = 0;    ///< sizes, expressions, the program from the cache, the memory check
  double inputs = 0;     ///< the host buffers: inputs generated, outputs poisoned
  double buffers = 0;    ///< device buffers made and their writes enqueued
  double launch = 0;     ///< arguments set, launches enqueued
  double read = 0;       ///< results read back, guard zones checked (waits for the launches)
  double checks = 0;     ///< profiling times, the simulator's log
  double reference = 0;  ///< the reference
  double compare = 0;    ///< the comparison and the findings
};

/// How one case is run: the buffer-flag and read modes, guard zones, and (for the barrier audit)
/// a replacement for the kernel's source text.
struct RunOptions {
  BufferMode buffers = BufferMode::write;  ///< for buffers whose spec names no `memory:`
  std::optional<ReadMode> read;            ///< unset: the spec's `read:`, else blocking
  /// Guard zones around every buffer; never on a simulator, which checks every access itself
  /// (and would see the guards as part of the allocation).
  bool guard_zones = true;
  std::optional<std::string> source_text;  ///< run this text instead of the spec's file
  std::string source_label;      ///< its name in findings (e.g. "mutant without barrier 2")
  CasePhases* phases = nullptr;  ///< when set, runCase adds each phase's wall time to it
};

/// The note a unit carries when the simulator could not run the build it tried first
/// (`failed_options`, failing with `failure`) and ran `ran_options` instead.
std::string simulatorBuildNote(const std::string& failed_options, const std::string& failure,
                               const std::string& ran_options);
/// The note a unit carries when a kernel that leaves its local size to the driver had a global size
/// no work-group larger than one work-item divides.
std::string singleItemGroupsNote(const std::string& kernel);
/// Whether a simulator note (takeSimulatorNotes, skippedChecksNote) says the simulator could not
/// look at something (a check left off, the kernel as written, races inside a work-group), as
/// opposed to how it ran: grading names these beside a passing simulator item.
bool isSimulatorLimit(std::string_view note);
/// Whether a simulator note says which work-group shapes a launch with a NULL local size ran in
/// (grading shows these on the simulator's line of the feedback).
bool isLocalShapesNote(std::string_view note);

/// Sets a scalar kernel argument: `value` converted to the kernel's type `type`, in that type's
/// bytes.
void setScalarArg(cl::Kernel& kernel, cl_uint index, ElemType type, double value);

class DeviceSession {
 public:
  /// `simulator`: the Oclgrind session of this process, for a simulator device (its findings join
  /// each case's, and its failures are reported as the tool's). May be null.
  explicit DeviceSession(const DeviceInfo& device, OclgrindSession* simulator = nullptr);

  const DeviceInfo& device() const { return device_; }
  cl::Context& context() { return context_; }
  cl::CommandQueue& queue() { return queue_; }

  /// Builds `source_path` with `options` and creates `kernels`, once per (path, options) per
  /// session. On a simulator, a failure of the tool is retried once as sim/tool_failure.hpp says.
  const BuildOutcome& build(const std::string& source_path, const std::string& options,
                            const std::vector<std::string>& kernels);
  /// The same for a source text (cached by the text itself).
  const BuildOutcome& buildText(const std::string& text, const std::string& options,
                                const std::vector<std::string>& kernels);

  /// Runs one case: resolves the sizes, builds, fills and poisons buffers, runs every launch,
  /// reads back, runs the reference and compares. Findings are values; only a broken spec throws,
  /// and CaseTooLarge (core/fit.hpp) for sizes whose buffers cannot exist on the device or host.
  /// On the simulator, a case whose NULL-local launch ran in one work-group along a dimension
  /// that allows two runs again in several groups per dimension (sim/work_groups.hpp), and the
  /// first of the two runs that fails is the outcome.
  CaseOutcome runCase(const Spec& spec, const Sizes& sizes, uint64_t seed,
                      const RunOptions& run = {});

  /// Whether the last runCase ended on an OpenCL error from the context or the queue (creating
  /// the buffers, enqueueing a launch, or waiting for and reading its results) on a real driver.
  /// Some drivers (NVIDIA's) leave the context unusable after a failed command, so that every
  /// later case fails too: reset() before the next one. Never after an argument the kernel
  /// refuses, a build failure, wrong results, or a simulator's findings.
  bool needsReset() const { return needs_reset_; }
  /// Starts afresh on the same device: a new context and queue and an empty program cache (the
  /// programs are rebuilt when next used). The simulator session, the kernel sources read and the
  /// guard size are kept. BuildOutcome references obtained before are invalidated; a context or
  /// queue copied before is the old one. The new context must then run a one-work-item probe
  /// kernel: some drivers (NVIDIA's, after a kernel faulted) stay unusable for the whole process,
  /// whatever the context. Throws cl::Error when the new context or queue cannot be made or the
  /// probe fails (the session then still needs a reset; only a new process can go on).
  void reset();
  /// Replaces the probe's OpenCL C source (a kernel `clh_probe(global int*)` that writes 1 to its
  /// element). Only for tests: a source that does not build stands for a process that cannot run
  /// anything any more.
  void setProbeSourceForTesting(std::string source) { probe_source_ = std::move(source); }
  /// How many times reset() succeeded.
  int resets() const { return resets_; }
  /// The options of every program built (or refused) from the file at `source_path` since the
  /// last reset, in the order of their texts.
  std::vector<std::string> builtOptions(const std::string& source_path) const;

  /// What the simulator ran differently from the spec since the last call, once each, for the
  /// unit's report: a build other than the unoptimised one, checks left off after a crash, the
  /// work-group shapes given to launches with a NULL local size (or that none larger than one
  /// work-item fits). Empty on a real device.
  std::vector<std::string> takeSimulatorNotes();

 private:
  struct CaseRun;  ///< runCase's steps (session.cpp)
  /// Drops the findings the spec suppresses on this device.
  void suppress(const Spec& spec, CaseOutcome& out) const;
  cl::Context makeContext() const;
  BuildOutcome buildOnce(const std::string& source, const std::string& options,
                         const std::vector<std::string>& kernels, std::string* failureText,
                         bool* kernelListed, int* error, std::string* function);

  DeviceInfo device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  /// The program cache's order, which also takes (source, options) as string views: every case
  /// looks its program up, without copying the source.
  struct ProgramKeyLess {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
      return std::pair<std::string_view, std::string_view>(a.first, a.second) <
             std::pair<std::string_view, std::string_view>(b.first, b.second);
    }
  };
  /// The build of `text` with `options` when it is in the cache, else nullptr.
  const BuildOutcome* cachedBuild(const std::string& text, const std::string& options) const;
  /// The source read from `path` before, else nullptr.
  const std::string* cachedSource(const std::string& path) const;

  std::map<std::string, std::string> sources_;
  std::map<std::pair<std::string, std::string>, BuildOutcome, ProgramKeyLess> programs_;
  OclgrindSession* sim_ = nullptr;
  std::map<std::string, std::unique_ptr<ExprEnv>> envs_;  // per spec file and name
  std::string env_key_;    ///< the last case's envs_ key, its storage reused
  ResolvedCase spare_rc_;  ///< the last case's resolution, its storage reused by the next
  std::map<std::string, HostBuffer> spare_host_, spare_got_;  ///< its host buffers, the same
  std::vector<cl::Event> spare_events_;  ///< its launches' events' storage (emptied), the same
  std::vector<std::pair<size_t, HostBuffer*>> spare_results_;  ///< its read list's, the same
  std::string reference_name_;              ///< the last case's reference, and its function
  const ReferenceFn* reference_ = nullptr;  ///< (the registry does not change after start)
  size_t guard_bytes_ = 0;
  BufferPool pool_;  ///< device buffers kept between cases (write mode, real devices)
  bool needs_reset_ = false;
  int resets_ = 0;
  std::vector<std::string> sim_notes_;  ///< for takeSimulatorNotes, in order, once each
  std::map<std::string, std::set<std::string>> null_local_shapes_;  ///< kernel -> shapes run
  std::set<std::string> single_item_kernels_;  ///< NULL local, and no group larger than 1 fits
  /// kernel -> the shapes of several groups per dimension its NULL-local cases ran again in
  std::map<std::string, std::set<std::string>> several_group_shapes_;
  bool several_groups_wanted_ = false;  ///< this case ran a NULL local launch in one group
  bool several_groups_pass_ = false;    ///< the case's second run, in several groups (runCase)
  CaseOutcome runCaseOnce(const Spec& spec, const Sizes& sizes, uint64_t seed,
                          const RunOptions& run);
  void noteSimulator(std::string note);
  std::string probe_source_ = "kernel void clh_probe(global int* p) { p[get_global_id(0)] = 1; }";
};

}  // namespace clh
