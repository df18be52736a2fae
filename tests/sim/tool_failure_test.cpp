// The simulator-failure rule without a simulator: which build comes first (unoptimised), which
// failures are the tool's, and the single retry with the other build that prepareOnSimulator makes.
#include "sim/tool_failure.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using clh::SimulatorFailure;

SimulatorFailure ctpopFailure() {
  // What the runner sees for "(n & (n - 1)) == 0" on Oclgrind 21.10: clCreateKernel says the kernel
  // it has just built does not exist.
  SimulatorFailure failure;
  failure.function = "clCreateKernel";
  failure.error_code = -46;
  failure.text =
      "\nOclgrind - OpenCL runtime error detected\n\tFunction: clCreateKernel\n\tError:    "
      "CL_INVALID_KERNEL_NAME\n\tKernel 'is_pow2' not found\n";
  failure.kernel_listed = true;
  return failure;
}

SimulatorFailure compileError() {
  SimulatorFailure failure;
  failure.function = "clBuildProgram";
  failure.error_code = -11;
  failure.text = "input.cl:3:5: error: use of undeclared identifier 'x'\n    x = 1;\n    ^\n";
  return failure;
}

TEST(ToolFailure, RecognisesOclgrindsOwnFailureTexts) {
  EXPECT_TRUE(clh::isSimulatorToolFailure(
      "OCLGRIND FATAL ERROR (./src/core/WorkItem.cpp:1681)\nUndefined external function: "
      "llvm.ctpop.i32\nWhen creating kernel 'is_pow2'"));
  EXPECT_TRUE(clh::isSimulatorToolFailure("Undefined external function: llvm.ctpop.i32"));
  EXPECT_TRUE(clh::isSimulatorToolFailure("Unsupported intrinsic llvm.fshl.i32"));
  EXPECT_TRUE(clh::isSimulatorToolFailure("Loading Oclgrind plugin failed (dlopen): x.so"));
  EXPECT_FALSE(clh::isSimulatorToolFailure(compileError().text));
  EXPECT_FALSE(clh::isSimulatorToolFailure(""));
}

TEST(ToolFailure, UnknownKernelThatTheProgramListsIsTheTools) {
  EXPECT_TRUE(clh::isSimulatorToolFailure(ctpopFailure()));
  SimulatorFailure misnamed = ctpopFailure();
  misnamed.kernel_listed = false;  // the spec names a kernel the source lacks: the author's fault
  EXPECT_FALSE(clh::isSimulatorToolFailure(misnamed));
  EXPECT_FALSE(clh::isSimulatorToolFailure(compileError()));
}

TEST(ToolFailure, TheUnoptimisedBuildComesFirstUnlessTheUserChoseALevel) {
  EXPECT_EQ(clh::preferredSimulatorOptions(""), "-cl-opt-disable");
  EXPECT_EQ(clh::preferredSimulatorOptions("-DTS=4"), "-DTS=4 -cl-opt-disable");
  EXPECT_EQ(clh::preferredSimulatorOptions("-cl-opt-disable -DTS=4"), "-cl-opt-disable -DTS=4");
  EXPECT_EQ(clh::preferredSimulatorOptions("-DTS=4 -O2"), "-DTS=4 -O2");
  // An option that merely contains the text is not the option.
  EXPECT_EQ(clh::preferredSimulatorOptions("-DX=-cl-opt-disabled"),
            "-DX=-cl-opt-disabled -cl-opt-disable");
  EXPECT_TRUE(clh::isUnoptimisedBuild("-DTS=4 -cl-opt-disable"));
  EXPECT_FALSE(clh::isUnoptimisedBuild("-DTS=4"));
  EXPECT_EQ(clh::describeSimulatorBuild("-DTS=4"), "optimised (Oclgrind's -Oz)");
  EXPECT_EQ(clh::describeSimulatorBuild("-O2 -DTS=4"), "optimised (-O2)");
  EXPECT_EQ(clh::describeSimulatorBuild("-cl-opt-disable"), "unoptimised (-cl-opt-disable)");
}

TEST(ToolFailure, TheRetryIsTheOtherBuild) {
  EXPECT_EQ(clh::simulatorRetryOptions(ctpopFailure(), "-DTS=4"), "-DTS=4 -cl-opt-disable");
  EXPECT_EQ(clh::simulatorRetryOptions(ctpopFailure(), ""), "-cl-opt-disable");
  EXPECT_EQ(clh::simulatorRetryOptions(ctpopFailure(), "-cl-opt-disable -DTS=4"), "-DTS=4");
  EXPECT_EQ(clh::simulatorRetryOptions(ctpopFailure(), "-cl-opt-disable"), "");
  EXPECT_EQ(clh::simulatorRetryOptions(compileError(), "-DTS=4"), std::nullopt);
}

TEST(ToolFailure, AnUnoptimisedBuildTheSimulatorCannotRunFallsBackToTheOptimisedOne) {
  std::vector<std::string> tried;
  const clh::SimulatorBuildResult result =
      clh::prepareOnSimulator("-DN=3", [&](const std::string& options) {
        tried.push_back(options);
        return clh::isUnoptimisedBuild(options) ? std::optional<SimulatorFailure>(ctpopFailure())
                                                : std::nullopt;
      });
  EXPECT_EQ(tried, (std::vector<std::string>{"-DN=3 -cl-opt-disable", "-DN=3"}));
  EXPECT_TRUE(result.retried);
  EXPECT_EQ(result.options, "-DN=3");
  EXPECT_EQ(result.first_options, "-DN=3 -cl-opt-disable");
  EXPECT_EQ(result.first_failure, "Oclgrind - OpenCL runtime error detected");
  EXPECT_FALSE(result.finding.has_value());
}

TEST(ToolFailure, AnOptimisedBuildTheSimulatorCannotRunFallsBackToTheUnoptimisedOne) {
  std::vector<std::string> tried;
  const clh::SimulatorBuildResult result =
      clh::prepareOnSimulator("-O2", [&](const std::string& options) {
        tried.push_back(options);
        return clh::isUnoptimisedBuild(options) ? std::nullopt
                                                : std::optional<SimulatorFailure>(ctpopFailure());
      });
  // The retry drops the user's level: beside -O2, -cl-opt-disable did not disable optimisation.
  EXPECT_EQ(tried, (std::vector<std::string>{"-O2", "-cl-opt-disable"}));
  EXPECT_TRUE(result.retried);
  EXPECT_EQ(result.options, "-cl-opt-disable");
  EXPECT_FALSE(result.failure.has_value());
  EXPECT_FALSE(result.finding.has_value());
}

TEST(ToolFailure, StillFailingAfterTheRetryIsAToolErrorNeverTheKernels) {
  int calls = 0;
  const clh::SimulatorBuildResult result = clh::prepareOnSimulator("", [&](const std::string&) {
    ++calls;
    return std::optional<SimulatorFailure>(ctpopFailure());
  });
  EXPECT_EQ(calls, 2);
  EXPECT_TRUE(result.retried);
  ASSERT_TRUE(result.finding.has_value());
  EXPECT_EQ(result.finding->kind, clh::FindingKind::tool_error);
  EXPECT_EQ(result.finding->summary,
            "the simulator failed in clCreateKernel (error -46) on both builds (unoptimised and "
            "optimised): Oclgrind - OpenCL runtime error detected");
  EXPECT_EQ(result.finding->raw, ctpopFailure().text);
}

TEST(ToolFailure, KernelFaultIsABuildErrorWithoutRetry) {
  int calls = 0;
  const clh::SimulatorBuildResult result =
      clh::prepareOnSimulator("-DTS=4", [&](const std::string&) {
        ++calls;
        return std::optional<SimulatorFailure>(compileError());
      });
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(result.retried);
  ASSERT_TRUE(result.finding.has_value());
  EXPECT_EQ(result.finding->kind, clh::FindingKind::build_error);
  EXPECT_EQ(result.finding->summary,
            "clBuildProgram failed (error -11): input.cl:3:5: error: use of undeclared identifier "
            "'x'");
}

TEST(ToolFailure, SuccessAtOnceMakesNoRetry) {
  int calls = 0;
  const clh::SimulatorBuildResult result =
      clh::prepareOnSimulator("-DTS=4", [&](const std::string&) {
        ++calls;
        return std::optional<SimulatorFailure>();
      });
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(result.retried);
  EXPECT_EQ(result.options, "-DTS=4 -cl-opt-disable");
  EXPECT_FALSE(result.finding.has_value());
}

}  // namespace
