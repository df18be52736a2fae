// The rerun of a simulator process without the check it crashed with: which checks each attempt
// leaves off, when it stops, what the report says, and how the child is told.
#include "sim/check_fallback.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using clh::OclgrindCheck;
using Checks = std::vector<OclgrindCheck>;

TEST(CheckFallback, NoCrashMeansOneAttemptWithEveryCheck) {
  std::vector<Checks> tried;
  const auto out = clh::runWithCheckFallback([&](const Checks& skip) {
    tried.push_back(skip);
    return false;
  });
  EXPECT_EQ(tried, (std::vector<Checks>{{}}));
  EXPECT_EQ(out.attempts, 1);
  EXPECT_TRUE(out.skipped.empty());
  EXPECT_TRUE(out.note.empty());
  EXPECT_FALSE(out.crashed);
}

TEST(CheckFallback, ACrashOfTheUninitializedCheckLeavesOnlyItOff) {
  std::vector<Checks> tried;
  const auto out = clh::runWithCheckFallback([&](const Checks& skip) {
    tried.push_back(skip);
    for (OclgrindCheck c : skip)
      if (c == OclgrindCheck::uninitialized) return false;
    return true;  // crashes while the uninitialized-value check is on
  });
  EXPECT_EQ(tried, (std::vector<Checks>{{}, {OclgrindCheck::uninitialized}}));
  EXPECT_EQ(out.skipped, (Checks{OclgrindCheck::uninitialized}));
  EXPECT_FALSE(out.crashed);
  EXPECT_NE(out.note.find("uninitialized-value check"), std::string::npos) << out.note;
  EXPECT_NE(out.note.find("not the kernel's"), std::string::npos) << out.note;
  EXPECT_EQ(out.note.find("data-race"), std::string::npos) << out.note;
}

TEST(CheckFallback, ACrashOfTheRaceCheckIsFoundNext) {
  const auto out = clh::runWithCheckFallback([&](const Checks& skip) {
    for (OclgrindCheck c : skip)
      if (c == OclgrindCheck::data_races) return false;
    return true;
  });
  EXPECT_EQ(out.skipped, (Checks{OclgrindCheck::data_races}));
  EXPECT_EQ(out.attempts, 3);
}

TEST(CheckFallback, ACrashWithoutAnyCheckIsNotACheck) {
  int calls = 0;
  const auto out = clh::runWithCheckFallback([&](const Checks&) {
    ++calls;
    return true;
  });
  EXPECT_EQ(calls, 4);
  EXPECT_TRUE(out.crashed);
  EXPECT_TRUE(out.note.empty());
}

TEST(CheckFallback, TheChildIsToldThroughItsEnvironmentOnly) {
  const std::vector<std::string> argv = {"/bin/tool", "__unit", "--spec", "x.yaml"};
  EXPECT_EQ(clh::withSkippedChecks(argv, {}), argv);
  const auto wrapped = clh::withSkippedChecks(argv, {OclgrindCheck::uninitialized});
  ASSERT_EQ(wrapped.size(), argv.size() + 2);
  EXPECT_EQ(wrapped[0], "/usr/bin/env");
  EXPECT_EQ(wrapped[1], std::string(clh::kSkipChecksVariable) + "=uninitialized");
  EXPECT_EQ(wrapped[2], "/bin/tool");
  EXPECT_EQ(clh::parseSkippedChecks("uninitialized,data_races,bogus,uninitialized"),
            (Checks{OclgrindCheck::uninitialized, OclgrindCheck::data_races}));
  EXPECT_TRUE(clh::parseSkippedChecks("").empty());
}

}  // namespace
