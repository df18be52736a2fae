// Telling a failure of the simulator from a fault of the kernel, and the one retry the harness
// allows: Oclgrind 21.10 cannot run some correct kernels once its optimiser has rewritten them
// (e.g. "(n & (n - 1)) == 0" becomes llvm.ctpop.i32, which its interpreter lacks).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/finding.hpp"

namespace clh {

/// The build option of the retry: Oclgrind then skips the LLVM passes that make such intrinsics.
inline constexpr std::string_view kSimulatorRetryOption = "-cl-opt-disable";

/// What the runner knows when preparing a kernel on the simulator failed.
struct SimulatorFailure {
  std::string function;  ///< the OpenCL call that failed: "clBuildProgram", "clCreateKernel", ...
  int error_code = 0;    ///< its error code (CL_INVALID_KERNEL_NAME is -46)
  /// Whatever text there is: the build log, the context callback's message, the exception's what().
  std::string text;
  /// For clCreateKernel: the program's CL_PROGRAM_KERNEL_NAMES does list the kernel. Oclgrind
  /// answers CL_INVALID_KERNEL_NAME when it cannot make a kernel it has just built, and says why
  /// only on stderr.
  bool kernel_listed = false;
};

/// True when `buildLogOrError` shows the simulator itself failing ("OCLGRIND FATAL ERROR",
/// "Undefined external function", "Unsupported intrinsic", "Unsupported instruction", a plugin
/// that did not load), never for a compiler diagnostic about the kernel.
bool isSimulatorToolFailure(const std::string& buildLogOrError);

/// The same over everything known: also true for clCreateKernel failing with
/// CL_INVALID_KERNEL_NAME on a kernel the built program lists.
bool isSimulatorToolFailure(const SimulatorFailure& failure);

/// The retry rule: for a tool failure under options that lack -cl-opt-disable, the options to try
/// once more (the same plus -cl-opt-disable); nullopt otherwise (the kernel's own fault, or the
/// retry already done).
std::optional<std::string> simulatorRetryOptions(const SimulatorFailure& failure,
                                                 const std::string& build_options);

/// How preparing a kernel on the simulator ended.
struct SimulatorBuildResult {
  std::string options;                      ///< the options of the last attempt
  bool retried = false;                     ///< a second attempt was made with -cl-opt-disable
  std::optional<SimulatorFailure> failure;  ///< the last attempt's failure; nullopt: it worked
  /// tool_error when the simulator failed even after the retry; build_error when the kernel did
  /// not build for a reason of its own; nullopt on success.
  std::optional<Finding> finding;
};

/// Applies the rule: calls `attempt(options)` (nullopt: built and kernel created; else what
/// failed), and once more with -cl-opt-disable added when the failure is the tool's.
SimulatorBuildResult prepareOnSimulator(
    const std::string& build_options,
    const std::function<std::optional<SimulatorFailure>(const std::string& options)>& attempt);

}  // namespace clh
