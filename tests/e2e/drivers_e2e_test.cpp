// End-to-end tests of the driver section on a driver the project controls: a fake driver (PoCL
// under the name "Crashy Test Driver", tests/support/crashy_icd.cpp) that crashes on launches the
// specification forbids. Its crashes are the driver's, named as such; the kernel's verdict stays
// pass; regression mode fails on what no baseline records, and passes against a recorded one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/tool_run.hpp"

namespace fs = std::filesystem;

namespace {

using clh::test::ToolRun;

// The tool with OCL_ICD_VENDORS naming a folder that holds only the fake driver (the tool adds
// Oclgrind by itself; --device keeps to the fake one).
ToolRun runWithCrashy(const std::string& args) {
  static const fs::path vendors = [] {
    const fs::path dir = fs::path(::testing::TempDir()) / "crashy-vendors";
    fs::create_directories(dir);
    std::ofstream(dir / "crashy.icd") << CLH_CRASHY_ICD << "\n";
    return dir;
  }();
  return clh::test::runToolWithEnv("OCL_ICD_VENDORS=" + vendors.string(), args);
}

bool haveCrashy() {
  return runWithCrashy("devices --device '^Crashy Test Driver'").code == 0;
}

const std::string kArgs = std::string(" ") + CLH_E2E_DIR +
                          "/specs/vadd_ok.yaml --device '^Crashy Test Driver' --cases 3 "
                          "--launch-shapes 20";

nlohmann::json readJson(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST(DriverSectionE2E, ACrashingDriverIsNamedAndTheKernelPasses) {
  if (!haveCrashy()) GTEST_SKIP() << "the fake driver needs PoCL (libpocl.so.2)";
  const fs::path json = fs::path(::testing::TempDir()) / "crashy.json";
  // The plain run records the baseline too: each run of the driver checks is some 11 s of crashed
  // processes, and writing a baseline changes neither the exit code nor the report.
  const fs::path recorded = fs::path(::testing::TempDir()) / "crashy-baselines";
  fs::remove_all(recorded);
  ToolRun r = runWithCrashy("check" + kArgs + " --json " + json.string() + " --write-baseline " +
                            recorded.string());
  EXPECT_EQ(r.code, 0) << r.out;
  const auto j = readJson(json);
  ASSERT_EQ(j["units"].size(), 2u) << r.out;
  for (const auto& u : j["units"]) EXPECT_EQ(u["status"], "pass") << u.dump(1);
  ASSERT_EQ(j["drivers"].size(), 1u);
  const auto& d = j["drivers"][0];
  EXPECT_EQ(d["platform"], "Crashy Test Driver");
  int crashed = 0;
  for (const auto& f : d["findings"]) crashed += f["verdict"] == "crashed";
  EXPECT_GT(crashed, 0) << d.dump(1);
  // The console names the driver beside its crashes, and no kernel failed.
  EXPECT_NE(r.out.find("Crashy Test Driver: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" crashed "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 failed"), std::string::npos) << r.out;
  ASSERT_TRUE(fs::exists(recorded / "crashy-cpu.json")) << r.out;

  // Regression mode with no baseline for a device fails on every crash: a unit test's
  // (DriverSection.WithoutABaselineEveryFindingIsNew, a crashed row), and the option's end to end
  // (E2E.KernelVerdictsPassWhateverTheDriverAndRegressionModeComparesTheDriver); a third run here,
  // some 11 s of crashed processes, proved it again.

  // Compared with the baseline the first run recorded: the same crashes are known, and it passes.
  r = runWithCrashy("check" + kArgs + " --baseline " + recorded.string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("known crashed"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("NEW "), std::string::npos) << r.out;
}

// Issue 43, item 6: a driver whose compiler aborts at a kernel's first launch with a work-group
// size (PoCL 3.0 did, on a correct kernel of the catalog) fails no kernel: the unit is the driver's
// tool error, named with the local size, and the device's driver section lists the crash. The same
// kernel on PoCL itself passes, and a kernel whose own code crashes the process stays the kernel's
// crash (E2E.CrashIsReportedAndTheRunGoesOn).
TEST(DriverSectionE2E, ACompilerThatAbortsAtALaunchIsTheDriversNotTheKernels) {
  if (!haveCrashy()) GTEST_SKIP() << "the fake driver needs PoCL (libpocl.so.2)";
  const fs::path json = fs::path(::testing::TempDir()) / "compile-abort.json";
  const std::string spec = std::string(CLH_E2E_DIR) + "/specs/compile_abort.yaml";
  const ToolRun r = runWithCrashy("check " + spec +
                                  " --device '^Crashy Test Driver' --cases 3 --launch-shapes 0 "
                                  "--json " +
                                  json.string());
  EXPECT_EQ(r.code, 0) << r.out;
  const auto j = readJson(json);
  ASSERT_EQ(j["units"].size(), 1u) << r.out;
  const auto& unit = j["units"][0];
  EXPECT_EQ(unit["status"], "tool_error") << unit.dump(1);
  const std::string summary = unit["failing_case"]["findings"][0]["summary"];
  EXPECT_NE(summary.find("the driver's compile step crashed at a launch"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("SIGABRT"), std::string::npos) << summary;
  EXPECT_NE(summary.find("not the kernel's"), std::string::npos) << summary;
  ASSERT_EQ(j["drivers"].size(), 1u) << r.out;
  bool listed = false;
  for (const auto& f : j["drivers"][0]["findings"])
    listed |= f["check"] == "launch.compile_crash" && f["verdict"] == "crashed";
  EXPECT_TRUE(listed) << j["drivers"][0].dump(1);
  EXPECT_NE(r.out.find("0 failed"), std::string::npos) << r.out;

  // PoCL under its own name (the system's drivers): the same kernel, built the same, passes.
  const ToolRun pocl = clh::test::runTool("check " + spec +
                                          " --device '^Portable' --cases 3 --launch-shapes 0 "
                                          "--no-driver-checks");
  EXPECT_EQ(pocl.code, 0) << pocl.out;
  EXPECT_NE(pocl.out.find("1 passed"), std::string::npos) << pocl.out;
}
