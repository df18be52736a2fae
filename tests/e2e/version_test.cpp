// `clharness --version` prints the project version and the git revision the build was configured
// from, and a check run's JSON report carries the same string as its tool_version.
#include "core/version.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "support/tool_run.hpp"

namespace {

using clh::test::runTool;

TEST(Version, PrintsTheProjectVersionAndTheGitRevision) {
  const clh::test::ToolRun r = runTool("--version");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, std::string("clharness ") + clh::kClharnessVersionString + "\n");
  EXPECT_EQ(std::string(clh::kClharnessVersion), CLHARNESS_PROJECT_VERSION);
  // "unknown" only where the source tree is not a git checkout.
  EXPECT_TRUE(std::regex_match(r.out, std::regex(R"(clharness \d+\.\d+\.\d+ \(git [^ ()]+\)\n)")))
      << r.out;
}

TEST(Version, AReportCarriesTheSameVersion) {
  const std::string json = ::testing::TempDir() + "/version-report.json";
  const clh::test::ToolRun r = runTool("check " + std::string(CLH_E2E_DIR) +
                                       "/specs/vadd_ok.yaml --device pocl --cases 3 "
                                       "--no-driver-checks --json " +
                                       json);
  if (r.code == 3) GTEST_SKIP() << "no PoCL device here";
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream in(json);
  const auto report = nlohmann::json::parse(in);
  EXPECT_EQ(report["tool_version"], clh::kClharnessVersionString);
  EXPECT_EQ("clharness " + report["tool_version"].get<std::string>() + "\n",
            runTool("--version").out);
}

}  // namespace
