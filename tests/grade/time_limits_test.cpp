// The phase limits of a grading child: a compile is timed apart from the case it happens in, a
// case's limit is a multiple of the reference solution's time for it with a floor, a confirming
// rerun doubles it, and the times a reference run reports are what scale a submission's limits.
#include "grade/time_limits.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "proc/gate.hpp"

namespace {

using clh::Sizes;
using clh::grade::LineTail;
using clh::grade::PhaseWatch;
using clh::grade::ReferenceTimes;
using clh::grade::TimePolicy;
using json = nlohmann::json;

json caseStart(const Sizes& s) {
  return {{"event", "case_start"}, {"sizes", s}};
}

TimePolicy policy(double floor, double buildFloor = 100) {
  TimePolicy p;
  p.case_floor_s = floor;
  p.build_floor_s = buildFloor;
  return p;
}

TEST(PhaseWatch, ACompileInsideACaseIsLeftOutOfTheCasesTime) {
  PhaseWatch w(policy(10), {});
  w.onEvent(caseStart({{"N", 105}}), 0);
  w.onEvent({{"event", "build_start"}}, 1);
  EXPECT_FALSE(w.check(60)) << "59 s of compiling are within the build limit (100 s)";
  w.onEvent({{"event", "build_end"}}, 60);
  EXPECT_FALSE(w.check(65)) << "6 s of the case itself";
  auto stop = w.check(70);
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->phase, "case");
  EXPECT_NEAR(stop->elapsed_s, 11, 1e-9);
  EXPECT_EQ(stop->limit_s, 10);
  EXPECT_EQ(stop->sizes, (Sizes{{"N", 105}}));
}

TEST(PhaseWatch, ACompilePastItsLimitStopsInTheBuild) {
  PhaseWatch w(policy(10, 30), {});
  w.onEvent(caseStart({{"N", 3}}), 0);
  w.onEvent({{"event", "build_start"}}, 2);
  EXPECT_FALSE(w.check(31));
  auto stop = w.check(33);
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->phase, "build");
  EXPECT_EQ(stop->limit_s, 30);
}

TEST(PhaseWatch, ACasesLimitIsAMultipleOfTheReferencesTimeWithAFloor) {
  ReferenceTimes ref;
  ref.cases[{{"N", 105}}] = 4.0;
  ref.cases[{{"N", 7}}] = 0.001;
  PhaseWatch w(policy(2), ref);
  w.onEvent(caseStart({{"N", 105}}), 0);
  EXPECT_FALSE(w.check(39)) << "10 x 4 s";
  auto stop = w.check(41);
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->limit_s, 40);
  ASSERT_TRUE(stop->reference_s);
  EXPECT_EQ(*stop->reference_s, 4.0);

  PhaseWatch small(policy(2), ref);
  small.onEvent(caseStart({{"N", 7}}), 0);
  auto floorStop = small.check(2.5);
  ASSERT_TRUE(floorStop) << "the floor, not 10 x 1 ms";
  EXPECT_EQ(floorStop->limit_s, 2);
}

TEST(PhaseWatch, AShrunkCaseTheReferenceNeverRanGetsItsSlowestCasesLimit) {
  ReferenceTimes ref;
  ref.cases[{{"N", 105}}] = 4.0;
  ref.cases[{{"N", 20}}] = 0.5;
  PhaseWatch w(policy(1), ref);
  w.onEvent(caseStart({{"N", 52}}), 0);
  EXPECT_FALSE(w.check(39));
  EXPECT_TRUE(w.check(41));
}

TEST(PhaseWatch, AConfirmingRerunDoublesEveryLimit) {
  TimePolicy p = policy(10, 100);
  p.scale = 2;
  PhaseWatch w(p, {});
  w.onEvent(caseStart({{"N", 1}}), 0);
  EXPECT_FALSE(w.check(19));
  ASSERT_TRUE(w.check(21));
  EXPECT_EQ(w.check(21)->limit_s, 20);
  EXPECT_EQ(p.buildLimit({}), 200);
}

TEST(PhaseWatch, StartingUpRunsOnTheBuildLimitNotTheCaseFloor) {
  PhaseWatch w(policy(1, 50), {});
  EXPECT_FALSE(w.check(40)) << "making a context on a busy machine";
  auto stop = w.check(51);
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->phase, "start");
}

TEST(PhaseWatch, AReferenceRunReportsItsCaseTimesWithoutItsCompiles) {
  PhaseWatch w(policy(10), {});
  w.onEvent({{"event", "build_start"}}, 0.5);
  w.onEvent({{"event", "build_end"}}, 1.5);
  w.onEvent(caseStart({{"N", 4}}), 2);
  w.onEvent({{"event", "build_start"}}, 2.5);
  w.onEvent({{"event", "build_end"}}, 5.5);
  w.onEvent(caseStart({{"N", 9}}), 6);  // the first case ends where the next begins
  w.onEvent({{"event", "unit"}}, 8);
  const ReferenceTimes& seen = w.observed();
  ASSERT_EQ(seen.cases.size(), 2u);
  EXPECT_NEAR(seen.cases.at({{"N", 4}}), 1.0, 1e-9) << "4 s in the case, 3 of them compiling";
  EXPECT_NEAR(seen.cases.at({{"N", 9}}), 2.0, 1e-9);
  EXPECT_NEAR(seen.build_s, 3.0, 1e-9);
}

TEST(PhaseWatch, TheReferenceTimedFirstInAConfirmingRunScalesTheSameCase) {
  PhaseWatch w(policy(1), {});
  json ref = caseStart({{"N", 64}});
  ref["who"] = "reference";
  w.onEvent(ref, 0);
  EXPECT_FALSE(w.check(30)) << "the reference's own case runs on the generous limit";
  w.onEvent({{"event", "case_end"}, {"who", "reference"}}, 3);
  w.onEvent(caseStart({{"N", 64}}), 3);
  EXPECT_FALSE(w.check(32)) << "10 x the reference's 3 s";
  auto stop = w.check(34);
  ASSERT_TRUE(stop);
  ASSERT_TRUE(stop->reference_s);
  EXPECT_NEAR(*stop->reference_s, 3, 1e-9);
}

TEST(LineTail, ReadsOnlyCompleteLinesAddedSinceTheLastCall) {
  const auto path = std::filesystem::path(::testing::TempDir()) / "line_tail.jsonl";
  std::ofstream out(path, std::ios::trunc);
  LineTail tail(path.string());
  std::vector<std::string> got;
  auto collect = [&](const std::string& l) { got.push_back(l); };
  out << "one\ntw" << std::flush;
  tail.poll(collect);
  EXPECT_EQ(got, (std::vector<std::string>{"one"}));
  out << "o\nthree\n" << std::flush;
  tail.poll(collect);
  EXPECT_EQ(got, (std::vector<std::string>{"one", "two", "three"}));
}

TEST(RunGate, ARunAloneWaitsForThoseBesideItAndKeepsNewOnesOut) {
  clh::RunGate gate;
  std::atomic<int> beside{0};
  std::atomic<bool> aloneRan{false}, lateSawAlone{false};
  gate.enterShared();
  ++beside;
  std::thread alone([&] {
    clh::RunGate::Turn a(gate, true);
    EXPECT_EQ(beside.load(), 0) << "nothing else runs beside a run alone";
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    aloneRan = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::thread late([&] {
    clh::RunGate::Turn s(gate, false);  // arrives while the run alone waits: goes after it
    lateSawAlone = aloneRan.load();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(aloneRan.load()) << "it waits for the shared holder";
  --beside;
  gate.leaveShared();
  alone.join();
  late.join();
  EXPECT_TRUE(aloneRan.load());
  EXPECT_TRUE(lateSawAlone.load());
}

}  // namespace
