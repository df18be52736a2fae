// Shards and merge (docs/ci.md): two shards of a run, merged, hold the same units with the same
// verdicts as the unsharded run; GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS choose a shard too; a
// missing shard and a unit that comes twice are said; shards on different devices merge into one
// report of every device; grade and semantics shards split the submissions and the devices.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/scratch.hpp"
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

// Two machines with different devices, one shard each (here: one on PoCL, one on Oclgrind, with the
// driver checks): the merge says nothing, has a driver section and an HTML matrix column for each
// device, and each shard's units on its own device only, none reported missing on the other.
TEST(Shards, ShardsOnDifferentDevicesMergeIntoOneMatrix) {
  clh::test::Scratch s("clh-shards-devices");
  const std::string run = " --cases 2 --launch-shapes 3 --json ";
  const auto pocl = runTool("check " + kSpecs + " --device pocl --shard 0/2" + run +
                            (s.dir / "s0.json").string());
  if (pocl.code == 3) GTEST_SKIP() << "no PoCL here";
  ASSERT_EQ(pocl.code, 0) << pocl.out;
  const auto sim =
      runTool("check " + kSpecs + " --device sim --shard 1/2" + run + (s.dir / "s1.json").string());
  if (sim.code == 3) GTEST_SKIP() << "no Oclgrind here";
  ASSERT_EQ(sim.code, 0) << sim.out;
  const fs::path html = s.dir / "merged.html";
  const auto merged =
      runTool("merge " + (s.dir / "s0.json").string() + " " + (s.dir / "s1.json").string() +
              " --json " + (s.dir / "merged.json").string() + " --html " + html.string());
  ASSERT_EQ(merged.code, 0) << merged.out;
  EXPECT_EQ(merged.out.find("clharness merge:"), std::string::npos) << merged.out;

  std::ifstream in(s.dir / "merged.json");
  const auto j = nlohmann::json::parse(in);
  ASSERT_EQ(j["devices"].size(), 2u) << j["devices"];
  ASSERT_EQ(j["drivers"].size(), 2u);
  std::set<std::string> sections, unitDevices, specs;
  for (const auto& d : j["drivers"]) sections.insert(d["device"].get<std::string>());
  EXPECT_EQ(sections, std::set<std::string>(j["devices"].begin(), j["devices"].end()));
  // Every unit once: the specs of shard 0 on PoCL, those of shard 1 on the simulator.
  const auto v0 = verdicts(s.dir / "s0.json"), v1 = verdicts(s.dir / "s1.json");
  const auto all = verdicts(s.dir / "merged.json");
  EXPECT_EQ(all.size(), v0.size() + v1.size());
  for (const auto& [unit, status] : v0) EXPECT_EQ(all.count(unit), 1u) << unit;
  for (const auto& [unit, status] : v1) EXPECT_EQ(all.count(unit), 1u) << unit;
  for (const auto& u : j["units"]) {
    unitDevices.insert(u["device"].get<std::string>());
    specs.insert(u["spec"].get<std::string>());
  }
  EXPECT_EQ(unitDevices.size(), 2u);
  EXPECT_EQ(specs.size(), 3u);  // quick_a, quick_b, quick_c
  // The HTML driver matrix: a column per device, neither "not run".
  const std::string page = clh::test::slurp(html);
  for (const auto& d : sections)
    EXPECT_NE(page.find("<th class=\"dev\">" + d + "</th>"), std::string::npos) << d;
  EXPECT_EQ(page.find("no driver section in this report"), std::string::npos);
}

// The ids of the submissions in a grade folder's gradebook (grades.csv: a header, then one row per
// submission, its id first).
std::vector<std::string> gradebookIds(const fs::path& out) {
  std::ifstream in(out / "grades.csv");
  std::vector<std::string> ids;
  std::string line;
  for (std::getline(in, line); std::getline(in, line);)
    ids.push_back(line.substr(0, line.find(',')));
  return ids;
}

// Two shards of a grade batch, each into a folder of its own, grade every submission exactly once;
// a shard past the count is refused.
TEST(Shards, TwoGradeShardsCoverEverySubmissionOnce) {
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("clh-grade-shards-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "in");
  const std::string subs = std::string(CLHARNESS_SOURCE_ROOT) + "/tests/grade/submissions/vadd/";
  // Three submissions split two and one; the split is the point, not the devices or the cases.
  const std::vector<std::string> names = {"off_by_one", "swapped_params", "three_params"};
  for (const auto& n : names) fs::copy_file(subs + n + ".cl", dir / "in" / (n + ".cl"));
  const std::string common = "grade --assignment vadd " + (dir / "in").string() +
                             " --device pocl --no-sanitize --cases 1 --allow-unassessed";
  std::multiset<std::string> seen;
  size_t sizes[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    const fs::path out = dir / ("out" + std::to_string(k));
    const auto r =
        runTool(common + " --out " + out.string() + " --shard " + std::to_string(k) + "/2");
    if (r.code == 3) GTEST_SKIP() << "no PoCL here";
    ASSERT_TRUE(r.code == 0 || r.code == 1) << r.out;  // 1: a submission lost points
    EXPECT_NE(r.out.find("shard " + std::to_string(k) + "/2"), std::string::npos) << r.out;
    const auto ids = gradebookIds(out);
    sizes[k] = ids.size();
    seen.insert(ids.begin(), ids.end());
  }
  EXPECT_EQ(seen, std::multiset<std::string>(names.begin(), names.end()));
  EXPECT_EQ(sizes[0] + sizes[1], names.size());
  EXPECT_GT(sizes[0], 0u);  // a split, not everything in one
  EXPECT_GT(sizes[1], 0u);
  const auto bad = runTool(common + " --out " + (dir / "bad").string() + " --shard 2/2");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("--shard '2/2'"), std::string::npos) << bad.out;
}

// semantics splits the devices it selects: over two shards each device is checked once (one
// device selected here, so one shard has it and the other has nothing to do).
TEST(Shards, SemanticsShardsSplitTheDevices) {
  const auto bad = runTool("semantics --device pocl --shard 1/1");
  EXPECT_EQ(bad.code, 2) << bad.out;
  int columns = 0;
  for (int k = 0; k < 2; ++k) {
    const auto r =
        runToolWithEnv("GTEST_SHARD_INDEX=" + std::to_string(k) + " GTEST_TOTAL_SHARDS=2",
                       "semantics --device pocl");
    if (r.code == 3) GTEST_SKIP() << "no PoCL here";
    ASSERT_EQ(r.code, 0) << r.out;
    const bool ran = r.out.find("running the semantics checks on") != std::string::npos;
    EXPECT_NE(r.out.find(ran ? "1 of 1 device(s)" : "0 of 1 device(s)"), std::string::npos)
        << r.out;
    columns += ran ? 1 : 0;
  }
  EXPECT_EQ(columns, 1);
}

}  // namespace
