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

#include "audit/tool_support.hpp"

namespace {

using namespace clh::test::audit;

/// One kernel of kernels/async_copies.cl: two work-groups of 16.
ScanOut scanKernel(const std::string& kernel) {
  return scanJson(fixture("kernels/async_copies.cl") + " --kernel " + kernel +
                      " --global 32 --local 16 --tries 1",
                  "async_copy_" + kernel);
}

TEST(AsyncCopy, AReadOfTheDestinationBeforeTheWaitIsARaceWithBothLines) {
  REQUIRE_OCLGRIND();
  ScanOut s = scanKernel("read_before_wait");
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
  ScanOut s = scanKernel("write_to_source");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* race = s.find("race");
  ASSERT_NE(race, nullptr) << s.run.out;
  EXPECT_EQ((*race)["address_space"], "global");
  EXPECT_EQ(lineSet(*race), (std::set<int>{16, 17})) << race->dump(2);
}

TEST(AsyncCopy, ACopyNeverWaitedForIsAMissingWaitAtTheCopy) {
  REQUIRE_OCLGRIND();
  ScanOut s = scanKernel("missing_wait");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* missing = s.find("missing_wait");
  ASSERT_NE(missing, nullptr) << s.run.out;
  EXPECT_EQ(lineSet(*missing), (std::set<int>{25})) << missing->dump(2);
  EXPECT_EQ(s.find("race"), nullptr) << s.run.out;  // nothing touches the tile
}

TEST(AsyncCopy, ACopyWaitedForAndFencedIsClean) {
  REQUIRE_OCLGRIND();
  ScanOut s = scanKernel("correct_wait");
  EXPECT_EQ(s.run.code, 0) << s.run.out;
}

TEST(AsyncCopy, TheNextCopyIntoATileStillBeingReadIsARace) {
  REQUIRE_OCLGRIND();
  ScanOut s = scanKernel("reuse_without_barrier");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* race = s.find("race");
  ASSERT_NE(race, nullptr) << s.run.out;
  EXPECT_EQ(lineSet(*race), (std::set<int>{49, 51})) << race->dump(2);
}

TEST(AsyncCopy, TwoCopiesInFlightIntoTheSameBytesRace) {
  REQUIRE_OCLGRIND();
  ScanOut s = scanKernel("two_copies_one_destination");
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
  ScanOut s = scanKernel("copy_reached_by_half");
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
  ScanOut s = scanKernel("copy_with_different_events");
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
