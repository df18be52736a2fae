// Shards and merge (docs/ci.md): two shards of a run, merged, hold the same units with the same
// verdicts as the unsharded run; GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS choose a shard too; a
// missing shard and a unit that comes twice are said.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "support/tool_run.hpp"

namespace fs = std::filesystem;
using clh::test::runTool;
using clh::test::runToolWithEnv;

namespace {

const std::string kSpecs = std::string(CLHARNESS_SOURCE_ROOT) + "/tests/reliability/specs/quick";
const std::string kRun = " --device pocl --cases 3 --launch-shapes 5 --no-driver-checks";

// unit title + device -> status, from a JSON report.
std::map<std::string, std::string> verdicts(const fs::path& json) {
  std::ifstream in(json);
  const auto j = nlohmann::json::parse(in, nullptr, false);
  std::map<std::string, std::string> out;
  if (j.is_discarded()) return out;
  for (const auto& u : j["units"])
    out[u.value("spec", "") + " [" + u.value("family", "") + "] " + u.value("device", "")] =
        u.value("status", "");
  return out;
}

TEST(Shards, TwoShardsMergedEqualTheWholeRun) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("clh-shards-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const auto whole = runTool("check " + kSpecs + kRun + " --json " + (dir / "whole.json").string());
  if (whole.code == 3) GTEST_SKIP() << "no PoCL here";
  ASSERT_EQ(whole.code, 0) << whole.out;
  const auto s0 =
      runTool("check " + kSpecs + kRun + " --shard 0/2 --json " + (dir / "s0.json").string());
  ASSERT_EQ(s0.code, 0) << s0.out;
  const auto s1 =
      runToolWithEnv("GTEST_SHARD_INDEX=1 GTEST_TOTAL_SHARDS=2",
                     "check " + kSpecs + kRun + " --json " + (dir / "s1.json").string());
  ASSERT_EQ(s1.code, 0) << s1.out;
  EXPECT_NE(s1.out.find("shard 1/2"), std::string::npos) << s1.out;
  // Neither shard alone is the whole run; both together are, exactly once each.
  EXPECT_LT(verdicts(dir / "s0.json").size(), verdicts(dir / "whole.json").size());
  EXPECT_LT(verdicts(dir / "s1.json").size(), verdicts(dir / "whole.json").size());
  const auto merged =
      runTool("merge " + (dir / "s0.json").string() + " " + (dir / "s1.json").string() +
              " --json " + (dir / "merged.json").string());
  EXPECT_EQ(merged.code, 0) << merged.out;
  EXPECT_EQ(merged.out.find("clharness merge:"), std::string::npos) << merged.out;
  EXPECT_EQ(verdicts(dir / "merged.json"), verdicts(dir / "whole.json"));

  // One shard twice and the other missing: both said.
  const auto twice =
      runTool("merge " + (dir / "s0.json").string() + " " + (dir / "s0.json").string());
  EXPECT_NE(twice.out.find("came twice"), std::string::npos) << twice.out;
  EXPECT_NE(twice.out.find("shard 1/2 is missing"), std::string::npos) << twice.out;
  EXPECT_EQ(runTool("check " + kSpecs + " --shard 2/2").code, 2);
  fs::remove_all(dir);
}

}  // namespace
