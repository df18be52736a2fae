// Which build of a program the simulator checks, telling a failure of the simulator from a fault
// of the kernel, and the one retry with the other build. The checks run on the program as written
// (-cl-opt-disable): Oclgrind's default -Oz deletes stores nobody reads and reads whose value is
// unused, and folds static-array indices, before any check sees them. A build the simulator
// cannot run (Oclgrind 21.10 lacks llvm.ctpop.i32 and `freeze` after some optimisations, and
// some LLVM instructions at -O0) is retried as the other build.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/finding.hpp"

namespace clh {

/// The option of the unoptimised build: Oclgrind then runs none of its LLVM passes.
inline constexpr std::string_view kSimulatorRetryOption = "-cl-opt-disable";

/// Set to "optimised", the simulator checks Oclgrind's optimised build first (as before issue 20):
/// for measuring what the unoptimised build costs and finds.
inline constexpr const char* kSimulatorBuildVariable = "CLHARNESS_OCLGRIND_BUILD";

/// The options of the build the simulator checks first: the user's options with -cl-opt-disable
/// added, unless they already choose a level themselves (-cl-opt-disable or -O...), which is kept,
/// or kSimulatorBuildVariable says "optimised".
std::string preferredSimulatorOptions(const std::string& build_options);

/// The other build: without -cl-opt-disable (Oclgrind's -Oz, or the user's -O level) when
/// `options` has it, else with it added.
std::string otherSimulatorOptions(const std::string& options);

/// Whether `options` build the program as written (they hold -cl-opt-disable or -O0).
bool isUnoptimisedBuild(const std::string& options);

/// Words for a report: "unoptimised (-cl-opt-disable)" or "optimised (Oclgrind's -Oz)" / "(-O2)".
std::string describeSimulatorBuild(const std::string& options);

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

/// The retry rule: for a tool failure, the options of the other build (otherSimulatorOptions);
/// nullopt for the kernel's own fault. prepareOnSimulator retries once.
std::optional<std::string> simulatorRetryOptions(const SimulatorFailure& failure,
                                                 const std::string& build_options);

/// How preparing a kernel on the simulator ended.
struct SimulatorBuildResult {
  std::string options;                      ///< the options of the last attempt
  bool retried = false;                     ///< a second attempt was made with the other build
  std::optional<SimulatorFailure> failure;  ///< the last attempt's failure; nullopt: it worked
  /// When retried: the first build's options and why it failed (its failure's first line).
  std::string first_options, first_failure;
  /// tool_error when the simulator failed even after the retry; build_error when the kernel did
  /// not build for a reason of its own; nullopt on success.
  std::optional<Finding> finding;
};

/// Applies the rule: calls `attempt(preferredSimulatorOptions(build_options))` (nullopt: built and
/// kernel created; else what failed), and once more with the other build when the failure is the
/// tool's.
SimulatorBuildResult prepareOnSimulator(
    const std::string& build_options,
    const std::function<std::optional<SimulatorFailure>(const std::string& options)>& attempt);

}  // namespace clh
