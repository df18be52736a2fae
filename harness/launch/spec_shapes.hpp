// Launch shapes for one spec's first launch: a rapidcheck generator of valid and out-of-range
// launches that keeps every shape meant to run inside the index range the spec's buffers were
// sized for, so a spec's own kernel can be enqueued under shapes it was not written for.
#pragma once

#include <rapidcheck.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "launch/rules.hpp"

namespace clh::launch {

/// One way the spec's program is built: its own options, or with a -cl-std=CL2.0 / CL3.0 added
/// (non-uniform work-groups become possible where the device supports them), or that with
/// -cl-uniform-work-group-size as well.
struct BuildVariant {
  std::string name;                ///< "spec", "cl3.0", "cl3.0-uniform"
  std::string extra;               ///< appended to the spec's build options ("" for "spec")
  launch::ProgramOptions program;  ///< the options as the rules read them (as built)
};

/// What the generator knows of the spec's first launch, for one case on one device.
struct SpecLaunch {
  std::vector<size_t> global;  ///< the spec's global size for the case (its length is work_dim)
  std::vector<size_t> local;   ///< the spec's local size; empty: NULL
  std::vector<size_t> offset;  ///< the spec's offset; empty: none
  /// The kernel's results do not depend on the work-group (its source uses no work-group
  /// built-in and no __local memory, or the spec itself lets the runtime choose): any local size,
  /// NULL included, keeps its contract. Otherwise only the spec's own local size does (or the
  /// kernel's reqd_work_group_size).
  bool any_local = false;
  /// The spec's __local arguments, in argument order: bytes, and the element size (a shape's
  /// sizes stay whole elements).
  std::vector<size_t> local_arg_bytes;
  std::vector<size_t> local_arg_elem;
  launch::DeviceLimits device;
  launch::KernelLimits kernel;         ///< queried with the spec's arguments set
  std::vector<BuildVariant> variants;  ///< at least the spec's own, first
  /// Generate zero_local shapes. PoCL 3.1 kills the process on a 0 in local_work_size[1] or [2]:
  /// leave this off unless each run is in a child process.
  bool zero_local = true;
  /// Draw only from these families; empty: every family that applies.
  std::vector<std::string> kinds;

  unsigned workDim() const { return static_cast<unsigned>(global.size()); }
};

/// One generated launch of the spec's first kernel.
struct SpecShape {
  /// The family: spec, valid, null_local, not_dividing, over_device_max, over_kernel_max,
  /// over_item_size, zero_local, zero_global, offset, local_mem_over, local_mem_limit,
  /// reqd_mismatch, reqd_null_local.
  std::string kind;
  size_t variant = 0;  ///< index into SpecLaunch::variants
  /// The enqueue; dynamic_local_bytes is the sum of local_arg_bytes.
  launch::LaunchConfig config;
  std::vector<size_t> local_arg_bytes;  ///< per __local argument, in order
  /// When it runs, the launch keeps the kernel's contract, the spec's global size and offset:
  /// its results can be compared with the spec's reference.
  bool checkable = false;
  /// "valid [cl3.0] 2D global {8,8} local {4,2}" (+ "local args {64,64}B" when they differ).
  std::string toString(const SpecLaunch& launch) const;
};

/// The families whose outcome depends on the kernel (its results under valid shapes, its
/// CL_KERNEL_WORK_GROUP_SIZE, __local use, reqd_work_group_size, non-uniform groups, offsets):
/// what `clharness check` and `clharness launch` draw from per spec by default. The others
/// (zero_local, zero_global, over_device_max, over_item_size) probe only the driver and run once
/// per device among the driver checks.
const std::vector<std::string>& kernelFamilies();

/// Whether `kind` is one of kernelFamilies().
bool isKernelFamily(const std::string& kind);

/// The families that apply to this launch, in a fixed order.
std::vector<std::string> specShapeKinds(const SpecLaunch& launch);

/// The families left out for this launch, each with the reason (for reports).
std::vector<std::pair<std::string, std::string>> omittedKinds(const SpecLaunch& launch);

/// The generator. Every shape that the rules allow to run either keeps every global id inside
/// [spec offset, spec offset + spec global) with a local size that keeps the kernel's contract,
/// or runs nothing (a 0 in the global size); shapes meant to fail break one rule or several.
rc::Gen<SpecShape> genSpecShape(const SpecLaunch& launch);

/// The local size under which the kernel keeps its contract: reqd_work_group_size when it
/// declares one, else the spec's local size (empty: NULL).
std::vector<size_t> contractLocal(const SpecLaunch& launch);

}  // namespace clh::launch
