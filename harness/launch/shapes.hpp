// Launch shapes for one built kernel: a rapidcheck generator of valid and out-of-range launches,
// and a driver loop that enqueues each one and compares the driver's code with the prediction.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cl/devices.hpp"
#include "cl/opencl.hpp"
#include "launch/rules.hpp"

namespace clh::launch {

/// What the generator may produce for a kernel.
struct ShapeOptions {
  /// Fix the number of dimensions (a kernel written for 2D); nullopt: 1 to 3 (or the device's).
  std::optional<unsigned> work_dim;
  /// Cap on the number of work-items of a shape meant to run (the callback sizes buffers by it).
  size_t max_global_items = 1 << 14;
  /// Largest local size per dimension in shapes meant to run.
  size_t max_local_per_dim = 256;
  /// The kernel tolerates a global offset (it indexes with get_global_id() - get_global_offset()):
  /// shapes with offsets, and with offsets that overflow the device's size_t, are generated.
  bool offsets = false;
  /// The kernel has a __local pointer argument that the callback sizes from
  /// LaunchShape::config.dynamic_local_bytes: shapes over the device's local memory are generated.
  bool dynamic_local = false;
  /// Generate work_dim 0 and work_dim above the device's maximum.
  bool invalid_work_dim = true;
  /// Generate a 0 in local_work_size. Off by default: the specification names no code for it, and
  /// PoCL 3.1 aborts the whole process (an assertion in its pthread scheduler) when the 0 is in
  /// dimension 1 or 2; turn it on only where a crash costs nothing but the run (a child process).
  bool zero_local = false;
  /// Draw only from these families (e.g. {"zero_local"}); empty: every family the options allow.
  std::vector<std::string> kinds;
  /// Launch only the drawn shapes of these families and leave the others out of the results; they
  /// are still drawn, so a seed gives the same shapes as without it. Empty: every shape drawn.
  std::vector<std::string> run_only;
};

/// One generated launch: which family it comes from ("valid", "over_device_max", ...) and the call.
struct LaunchShape {
  std::string kind;
  LaunchConfig config;
};

/// The families the generator draws from, given the limits (a family that cannot exist for these
/// limits, such as "over_kernel_max" when the kernel's maximum is the device's, is left out).
std::vector<std::string> shapeKinds(const DeviceLimits& device, const KernelLimits& kernel,
                                    const ShapeOptions& options);

/// A generator of launch shapes for a kernel on a device. Shapes meant to run stay within
/// `options.max_global_items`; shapes meant to fail break one rule (sometimes several).
rc::Gen<LaunchShape> genLaunchShape(const DeviceLimits& device, const KernelLimits& kernel,
                                    const ShapeOptions& options);

/// Sets the kernel's arguments for a shape: buffers large enough for every work-item of
/// shape.config (global sizes, plus the offset when ShapeOptions::offsets), and __local arguments
/// of shape.config.dynamic_local_bytes when ShapeOptions::dynamic_local. A cl::Error thrown here is
/// recorded as the driver refusing an argument (Stage::set_args); any other exception propagates.
using SetArgs = std::function<void(cl::Kernel&, const LaunchShape&)>;

/// The value an output int holds until its work-item writes it (no kernel here writes it).
inline constexpr cl_int kUnwritten = static_cast<cl_int>(0xDEADBEEF);

/// The buffer `set_args` just bound for a shape, into which the kernel writes one int per
/// work-item at its linear index (global ids less the offset, dimension 0 fastest), never
/// kUnwritten. checkLaunchShapes fills it with kUnwritten before a launch the rules let succeed and
/// counts the ints still unwritten when that launch completes with CL_SUCCESS.
using OutputOf = std::function<cl::Buffer(const LaunchShape&)>;

/// The work-items a launch has: the product of its global sizes (0 for a NULL or zero global size
/// or an invalid work_dim).
size_t workItems(const LaunchConfig& config);

/// The result of one shape: what was predicted, what the driver did, and whether that conforms.
struct ShapeResult {
  LaunchShape shape;
  KernelLimits kernel;  ///< as queried after the callback set the arguments
  Prediction prediction;
  Outcome got;
  /// For a launch that completed with CL_SUCCESS where the rules allow it (and an output was
  /// given): its work-items, and how many of them left their output unwritten.
  size_t work_items = 0;
  size_t not_run = 0;
  bool conforms = false;  ///< prediction.acceptsRun(got, not_run)
  /// got.toString(), and for a success that did not run every work-item
  /// "completion: CL_SUCCESS (0), but 64 of 64 work-items did not run".
  std::string gotText() const;
  /// prediction.allowedToString(); after a success that did not run every work-item, the success
  /// it allows reads "completion: CL_SUCCESS (0) running every work-item".
  std::string requiredText() const;
  /// One line: "over_device_max 2D global {..} local {..}: predicted ..., got ...: deviates".
  std::string toString() const;
};

/// The device's limits as the rules need them (queries CL_DEVICE_ADDRESS_BITS as well).
DeviceLimits deviceLimits(const clh::DeviceInfo& device);
/// The kernel's limits on a device, as its arguments are now.
KernelLimits kernelLimits(const cl::Kernel& kernel, const cl::Device& device);
/// The build options the kernel's program was built with on a device, parsed.
ProgramOptions programOptions(const cl::Kernel& kernel, const cl::Device& device);

/// Draws `shapes` launch shapes from `seed`, and for each: calls `set_args`, enqueues the kernel on
/// a new in-order queue of the kernel's context, waits for it, and compares the outcome with
/// predictLaunch(); with `output`, a launch that the rules let succeed and that completes with
/// CL_SUCCESS must also have run every work-item. The kernel must be built for `device`. Same
/// seed, same shapes (ShapeOptions::run_only keeps some of them). A cl::Error from filling or
/// reading the output propagates.
std::vector<ShapeResult> checkLaunchShapes(const clh::DeviceInfo& device, cl::Kernel& kernel,
                                           const SetArgs& set_args, int shapes, uint64_t seed,
                                           const ShapeOptions& options = {},
                                           const OutputOf& output = {});

// Inside rc::gen::exec: a value in [lo, hi] (inclusive), biased toward the small end by
// rapidcheck's size (lo where hi <= lo).
size_t pick(size_t lo, size_t hi);

}  // namespace clh::launch
