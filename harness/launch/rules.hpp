// The OpenCL specification's rules for clEnqueueNDRangeKernel as a pure function: from the device's
// and kernel's queried limits and a launch, the set of results a conforming driver may give.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clh::launch {

/// Where a launch stopped: clSetKernelArg (a __local argument the driver refused), the enqueue
/// call itself, or the command's completion (its execution status once waited for).
enum class Stage { set_args, enqueue, completion };
const char* toString(Stage stage);
std::optional<Stage> stageFromString(std::string_view word);  ///< none for another word

/// Stands for "any negative code" in an allowed outcome (a command's failed execution status is
/// implementation-defined).
inline constexpr int kAnyError = -100000;

/// One result of a launch: the stage where it ended and the code there. A launch that ran is
/// {completion, CL_SUCCESS}.
struct Outcome {
  Stage stage = Stage::completion;
  int code = 0;
  bool operator==(const Outcome&) const = default;
  /// "enqueue: CL_INVALID_WORK_GROUP_SIZE (-54)", "completion: CL_SUCCESS (0)".
  std::string toString() const;
};

/// What the device reports (clGetDeviceInfo).
struct DeviceLimits {
  int opencl_major = 1;  ///< CL_DEVICE_VERSION, the API version that applies
  int opencl_minor = 2;
  size_t max_work_group_size = 0;           ///< CL_DEVICE_MAX_WORK_GROUP_SIZE
  std::vector<size_t> max_work_item_sizes;  ///< one per dimension (CL_DEVICE_MAX_WORK_ITEM_SIZES)
  uint64_t local_mem_size = 0;              ///< CL_DEVICE_LOCAL_MEM_SIZE
  bool non_uniform_work_groups = false;     ///< CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT (2.0+)
  unsigned address_bits = 64;               ///< CL_DEVICE_ADDRESS_BITS: the device's size_t
};

/// What the kernel reports for that device (clGetKernelWorkGroupInfo), queried after its arguments
/// were set.
struct KernelLimits {
  size_t work_group_size = 0;  ///< CL_KERNEL_WORK_GROUP_SIZE
  /// CL_KERNEL_LOCAL_MEM_SIZE: static __local variables, the implementation's own needs and the
  /// __local arguments as set.
  uint64_t local_mem_size = 0;
  /// CL_KERNEL_COMPILE_WORK_GROUP_SIZE: reqd_work_group_size, or {0,0,0} when the kernel has none.
  std::array<size_t, 3> compile_work_group_size{0, 0, 0};
  bool hasRequiredSize() const { return compile_work_group_size[0] != 0; }
};

/// What the program's build options say (only -cl-std and -cl-uniform-work-group-size matter).
struct ProgramOptions {
  int cl_std_major = 1;  ///< from -cl-std=CLx.y; 1.2 when absent (the default for OpenCL C)
  int cl_std_minor = 2;
  bool uniform_work_group_size = false;  ///< -cl-uniform-work-group-size given
};
/// Reads -cl-std=CLx.y (the last one wins) and -cl-uniform-work-group-size from build options.
ProgramOptions parseBuildOptions(const std::string& options);

/// One clEnqueueNDRangeKernel call. Vectors hold at least max(work_dim, 1) values and are passed
/// as they are (so an invalid work_dim can be tried safely).
struct LaunchConfig {
  unsigned work_dim = 1;
  std::vector<size_t> global;
  std::optional<std::vector<size_t>> local;   ///< nullopt: local_work_size = NULL
  std::optional<std::vector<size_t>> offset;  ///< nullopt: global_work_offset = NULL
  /// Bytes the launch asks for through the kernel's __local pointer arguments (0 when none).
  uint64_t dynamic_local_bytes = 0;
  /// "1D global {64} local {8} offset {3} dynamic-local 256B".
  std::string toString() const;
};

/// One specification rule that the launch breaks, with the outcomes it allows.
struct AppliedRule {
  std::string id;      ///< short stable id, e.g. "local.over_item_size"
  std::string reason;  ///< for a person: the rule and the numbers that break it
  std::vector<Outcome> allows;
};

/// The prediction: every acceptable outcome, and why.
struct Prediction {
  /// Acceptable outcomes; an Outcome whose code is kAnyError matches any negative code there.
  std::vector<Outcome> allowed;
  /// The rules the launch breaks; empty when it must run.
  std::vector<AppliedRule> rules;
  /// Notes on rules that were looked at and do not apply in this way (e.g. non-uniform groups
  /// allowed), for reports.
  std::vector<std::string> notes;
  /// OpenCL 2.1+ with a NULL or zero global size: success is acceptable whatever else applies.
  bool zero_size_success = false;

  bool accepts(const Outcome& got) const;
  /// accepts(got), and a launch that completed with CL_SUCCESS ran every work-item: `not_run` is
  /// how many of them left no trace (0 when not counted). Where a rule lets the launch succeed,
  /// success means running (as with a NULL local size, for a 0 in local_work_size): CL_SUCCESS
  /// with work-items that never ran conforms to no rule.
  bool acceptsRun(const Outcome& got, size_t not_run) const;
  /// True when the launch breaks no rule: only {completion, CL_SUCCESS} is acceptable.
  bool mustSucceed() const { return rules.empty(); }
  /// "enqueue: CL_INVALID_WORK_GROUP_SIZE (-54) | enqueue: CL_INVALID_WORK_ITEM_SIZE (-55)".
  std::string allowedToString() const;
};

/// True when the launch may use non-uniform work-groups: an OpenCL 2.0+ device that supports them
/// and a program built with -cl-std=CL2.0 or later without -cl-uniform-work-group-size.
bool nonUniformAllowed(const DeviceLimits& device, const ProgramOptions& program);

/// Applies the rules of clEnqueueNDRangeKernel (OpenCL 3.0 API specification, and the 1.x rules
/// for a 1.x device) to one launch. Pure: no OpenCL call.
Prediction predictLaunch(const DeviceLimits& device, const KernelLimits& kernel,
                         const ProgramOptions& program, const LaunchConfig& launch);

}  // namespace clh::launch
