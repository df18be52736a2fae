// Async copies in flight on the simulator (issue 27), through the built tool on Oclgrind: a race
// between a copy and a work-item's access names both lines, a copy never waited for is a
// missing_wait at the copy's line, a copy some work-items skip or join to another event is a
// divergence, and correct copies (the catalog's mmul_async) stay clean.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "support/tool_run.hpp"

namespace {

using clh::test::ToolRun;

std::string fixture(const std::string& rel) {
  return std::string(CLH_AUDIT_DIR) + "/" + rel;
}
std::string root(const std::string& rel) {
  return std::string(CLHARNESS_SOURCE_ROOT) + "/" + rel;
}

struct Scan {
  ToolRun run;
  nlohmann::json result;  // the one result of --json
  const nlohmann::json* find(const std::string& kind) const {
    if (!result.is_object()) return nullptr;
    for (const auto& f : result["findings"])
      if (f["kind"] == kind) return &f;
    return nullptr;
  }
};

std::set<int> lineSet(const nlohmann::json& finding) {
  std::set<int> s;
  for (const auto& l : finding["lines"]) s.insert(l["line"].get<int>());
  return s;
}

/// One kernel of kernels/async_copies.cl: two work-groups of 16.
Scan scanKernel(const std::string& kernel) {
  const std::string json = ::testing::TempDir() + "/async_copy_" + kernel + ".json";
  std::remove(json.c_str());
  Scan s;
  s.run = clh::test::runTool("scan " + fixture("kernels/async_copies.cl") + " --kernel " + kernel +
                             " --global 32 --local 16 --tries 1 --json " + json);
  std::ifstream in(json);
  auto j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_object() && j["results"].size() == 1) s.result = j["results"][0];
  return s;
}

#define REQUIRE_OCLGRIND()                                            \
  do {                                                                \
    if (clh::test::runTool("devices --device Oclgrind").code != 0)    \
      GTEST_SKIP() << "no Oclgrind device here: nothing was checked"; \
  } while (0)

TEST(AsyncCopy, AReadOfTheDestinationBeforeTheWaitIsARaceWithBothLines) {
  REQUIRE_OCLGRIND();
  Scan s = scanKernel("read_before_wait");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* race = s.find("race");
  ASSERT_NE(race, nullptr) << s.run.out;
  EXPECT_EQ((*race)["address_space"], "local");
  EXPECT_EQ(lineSet(*race), (std::set<int>{7, 8})) << race->dump(2);  // the copy, the read
  EXPECT_NE((*race)["summary"].get<std::string>().find("async copy"), std::string::npos)
      << race->dump(2);
}

TEST(AsyncCopy, AWriteToTheSourceBeforeTheWaitIsARace) {
  REQUIRE_OCLGRIND();
  Scan s = scanKernel("write_to_source");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* race = s.find("race");
  ASSERT_NE(race, nullptr) << s.run.out;
  EXPECT_EQ((*race)["address_space"], "global");
  EXPECT_EQ(lineSet(*race), (std::set<int>{16, 17})) << race->dump(2);
}

TEST(AsyncCopy, ACopyNeverWaitedForIsAMissingWaitAtTheCopy) {
  REQUIRE_OCLGRIND();
  Scan s = scanKernel("missing_wait");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* missing = s.find("missing_wait");
  ASSERT_NE(missing, nullptr) << s.run.out;
  EXPECT_EQ(lineSet(*missing), (std::set<int>{25})) << missing->dump(2);
  EXPECT_EQ(s.find("race"), nullptr) << s.run.out;  // nothing touches the tile
}

TEST(AsyncCopy, ACopyWaitedForAndFencedIsClean) {
  REQUIRE_OCLGRIND();
  Scan s = scanKernel("correct_wait");
  EXPECT_EQ(s.run.code, 0) << s.run.out;
}

TEST(AsyncCopy, TheNextCopyIntoATileStillBeingReadIsARace) {
  REQUIRE_OCLGRIND();
  Scan s = scanKernel("reuse_without_barrier");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* race = s.find("race");
  ASSERT_NE(race, nullptr) << s.run.out;
  EXPECT_EQ(lineSet(*race), (std::set<int>{49, 51})) << race->dump(2);
}

TEST(AsyncCopy, TwoCopiesInFlightIntoTheSameBytesRace) {
  REQUIRE_OCLGRIND();
  Scan s = scanKernel("two_copies_one_destination");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* race = s.find("race");
  ASSERT_NE(race, nullptr) << s.run.out;
  EXPECT_EQ(lineSet(*race), (std::set<int>{60, 61})) << race->dump(2);
  EXPECT_EQ((*race)["summary"].get<std::string>().rfind(
                "Write-write data race between two async copies in flight", 0),
            0u)
      << race->dump(2);
}

TEST(AsyncCopy, ACopyReachedBySomeWorkItemsOnlyIsADivergenceAtTheCopy) {
  REQUIRE_OCLGRIND();
  Scan s = scanKernel("copy_reached_by_half");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* divergence = s.find("divergence");
  ASSERT_NE(divergence, nullptr) << s.run.out;
  EXPECT_EQ(lineSet(*divergence), (std::set<int>{72})) << divergence->dump(2);
  EXPECT_NE((*divergence)["summary"].get<std::string>().find(
                "Only 8 out of 16 work-items executed the async copy"),
            std::string::npos)
      << divergence->dump(2);
}

TEST(AsyncCopy, ACopyJoinedToDifferentEventsIsADivergence) {
  REQUIRE_OCLGRIND();
  Scan s = scanKernel("copy_with_different_events");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* divergence = s.find("divergence");
  ASSERT_NE(divergence, nullptr) << s.run.out;
  EXPECT_EQ(lineSet(*divergence), (std::set<int>{84})) << divergence->dump(2);
  EXPECT_NE((*divergence)["summary"].get<std::string>().find("different events"), std::string::npos)
      << divergence->dump(2);
  EXPECT_EQ(s.find("race"), nullptr) << s.run.out;
}

TEST(AsyncCopy, TheCatalogsMmulAsyncIsClean) {
  REQUIRE_OCLGRIND();
  // The strided copy of a column of B into Bwrk per step, waited for, a barrier per step.
  ToolRun r = clh::test::runTool("check " + root("specs/handson/mmul_async.yaml") +
                                 " --device Oclgrind --cases 6");
  EXPECT_EQ(r.code, 0) << r.out;
  // As published, no barrier ends a step: the next step's copy overwrites Bwrk while other
  // work-items still read it.
  ToolRun published =
      clh::test::runTool("scan " + root("kernels/handson/mmul_async_as_published.cl") +
                         " --kernel mmul --global 8 --local 4 --arg Ndim=8 --arg Mdim=3 "
                         "--arg Pdim=4 --tries 1");
  EXPECT_EQ(published.code, 1) << published.out;
  EXPECT_NE(published.out.find("async copy in flight"), std::string::npos) << published.out;
}

}  // namespace
