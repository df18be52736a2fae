// The launch-configuration family for one spec on one device: generated launch shapes of the
// spec's own kernel, each enqueue compared with what the OpenCL specification allows, and the
// results of each launch that runs compared with the spec's reference.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cl/session.hpp"
#include "core/finding.hpp"
#include "core/spec.hpp"
#include "launch/rules.hpp"
#include "launch/spec_shapes.hpp"

namespace clh::launch {

/// One shape of the family and what became of it.
struct ShapeCheck {
  int index = 0;  ///< its place in the seed's sequence (`clharness launch --shape I` replays it)
  SpecShape shape;
  std::string text;             ///< shape.toString(): the shape as a person reads it
  launch::KernelLimits kernel;  ///< as queried with the shape's arguments set
  launch::Prediction prediction;
  launch::Outcome got;
  /// The process running the shape died ("SIGSEGV", ...) or ran out of time ("timeout"); `got`
  /// is then meaningless. Filled in by whoever ran the family in a child process.
  std::string died;
  bool conforms = false;  ///< the prediction accepts `got` (never when `died`)
  /// The launch had to run and did not (an error code, or the process died), and the spec
  /// `expect`s exactly that of its kernel (launch_error, crash: an as-published bug that
  /// overruns a private array): the kernel's finding, not the driver's deviation.
  bool spec_expected = false;
  bool results_checked = false;
  /// The earlier shape (its index) whose result check ran this one's case, the same build, local
  /// size and __local bytes: its findings are this shape's, and no second run was made; -1 when
  /// the shape's result check ran itself (or none ran).
  int results_of = -1;
  /// Findings of the result check that the spec does not expect (wrong_result, unwritten,
  /// out_of_bounds, a simulator's diagnostics), and guard-zone hits of the shape's own run.
  std::vector<Finding> result_findings;

  /// "crash: SIGSEGV", "timeout", or got.toString().
  std::string gotText() const;
  /// The ids of the rules the launch breaks ("local.zero", ...); empty when it must run.
  std::vector<std::string> ruleIds() const;
  bool resultMismatch() const { return !result_findings.empty(); }
  /// "#17 over_item_size 1D global {4097} local {4097}: predicted enqueue: ..., got ...".
  std::string toString() const;
};

/// Everything one run of the family produced. Nothing here prints.
struct LaunchFamilyResult {
  std::string spec;       ///< Spec::name
  std::string spec_file;  ///< Spec::file
  std::string device;     ///< DeviceInfo::displayName()
  Sizes sizes;
  uint64_t seed = 0;
  SpecLaunch launch;  ///< what the generator worked from (limits, variants, global, local)
  std::vector<std::string> kinds;                            ///< the families drawn from
  std::vector<std::pair<std::string, std::string>> omitted;  ///< families left out, and why
  std::vector<std::string> notes;  ///< build variants that did not build, features found, ...
  std::vector<ShapeCheck> shapes;
  /// The case could not be set up (its program did not build, its buffers could not be made):
  /// no shape ran.
  std::optional<Finding> failure;
  /// The family stopped early to go on in a new process from this shape (see
  /// LaunchFamilyOptions::stop_after_failed_command).
  std::optional<int> restart_at;

  int conforming() const;
  /// Shapes whose outcome the prediction does not accept (crashes included), less those the
  /// spec expects of its kernel.
  int deviating() const;
  int specExpected() const;
  int mismatching() const;
  int died() const;
};

struct LaunchFamilyOptions {
  /// Re-run each launch that runs with the spec's global size and offset through
  /// DeviceSession::runCase and compare its results with the reference.
  bool check_results = true;
  /// Generate zero_local shapes (PoCL 3.1 dies on some): only where a crash costs a child process.
  bool zero_local = true;
  /// Only these families (see SpecShape::kind); empty: all that apply.
  std::vector<std::string> kinds;
  /// Skip the shapes before this index (resuming after a crash: the same seed, the same shapes).
  int first_shape = 0;
  /// On a real device, stop after a shape whose command failed while or after running (an error
  /// at completion, CL_OUT_OF_RESOURCES or a vendor code at enqueue, a failed read of its results)
  /// and set restart_at: NVIDIA's driver keeps such an error in the context (a kernel that
  /// faulted), and every later command in it fails. A runner with child processes goes on in a
  /// new one; the shapes after it would otherwise report the first shape's failure.
  bool stop_after_failed_command = false;
  /// Called before each shape is enqueued ("enqueue": the check holds the shape and its
  /// prediction) and before its results are checked ("results": the outcome too), so a process
  /// that dies can be attributed to the shape.
  std::function<void(const ShapeCheck& partial, const char* phase)> on_shape_start;
  /// Called after each shape with its check.
  std::function<void(const ShapeCheck&)> on_shape_done;
  /// Shapes predicted to run (Prediction::mustSucceed) whose arguments were set are not enqueued:
  /// the family's runner has seen the kernel die as its spec expects, shape after shape, and
  /// each such shape would only die so again (launch/run.cpp). on_shape_not_run gets each, with
  /// its prediction; it is not in the result's shapes. Shapes the specification forbids are still
  /// enqueued and judged.
  bool skip_must_run = false;
  std::function<void(const ShapeCheck&)> on_shape_not_run;
  /// Called once the launch is known and before any shape runs (kinds, omitted, notes filled).
  std::function<void(const LaunchFamilyResult&)> on_ready;
  /// Changes the device's limits before anything is predicted. Only for testing that a wrong
  /// prediction is caught: with true limits, leave it empty.
  std::function<void(launch::DeviceLimits&)> adjust_limits;
};

/// Runs `shapes` launch shapes of the spec's first launch on the session's device, for the case
/// `sizes` (buffers, arguments and global size as the spec resolves them there). The shapes are a
/// function of `seed`, the spec's name and the limits only; the case's data of `seed`. Each shape's
/// enqueue is compared with launch::predictLaunch(); a shape that runs with the spec's global
/// size and offset and a local size that keeps the kernel's contract is also run through
/// DeviceSession::runCase with the spec's local size (and __local arguments, and build options)
/// replaced, and its findings that the spec does not expect are kept. Throws only for a spec that
/// cannot be resolved.
LaunchFamilyResult runLaunchFamily(DeviceSession& session, const Spec& spec, const Sizes& sizes,
                                   int shapes, uint64_t seed,
                                   const LaunchFamilyOptions& options = {});

/// A small case of the spec for the family, from the spec's own generator (its simulator ranges
/// on a simulator), drawn from `seed` and the spec's name: of 64 draws in the spec's domain, the
/// one whose first launch has the number of work-items nearest 256 (64 on a simulator). Throws
/// std::runtime_error when none is in the domain.
Sizes launchCaseSizes(const Spec& spec, bool simulator, uint64_t seed);

/// The -cl-std variants a family builds beside the spec's own program on `device`, each a name
/// and the options it adds ("cl3.0" and "-cl-std=CL3.0", then its -cl-uniform-work-group-size
/// one): none where the device compiles no OpenCL C of 2.0 or later.
std::vector<std::pair<std::string, std::string>> clStdVariants(const DeviceInfo& device);

/// Every options text a family of a case with the resolved `options` builds on `device`: those,
/// then each of clStdVariants() added to them (what run/prebuild.hpp compiles ahead).
std::vector<std::string> familyBuildOptions(const std::string& options, const DeviceInfo& device);

/// Whether a launch family's failure on this shape is the driver's answer rather than the
/// kernel's doing: every failure of a shape that breaks a rule (the driver's answer to a launch
/// the specification forbids: an error code it does not allow, a success, a crash, a hang, or
/// results of a launch that should not have run), and a launch that must run refused by
/// clSetKernelArg or the enqueue with an invalid-argument code. Every other failure of a launch
/// that must run (an error at completion, CL_OUT_OF_RESOURCES, a crash, a hang, wrong results)
/// is the kernel's.
bool chargedToDriver(const ShapeCheck& shape);

}  // namespace clh::launch
