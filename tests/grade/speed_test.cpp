// Tests of the speed item's measurement in pairs (no device): the median of the rounds' ratios and
// its quartiles, a planted slow round that a ratio of the fastest runs would be fooled by, the
// turning order within rounds, points rounded as shown (9.998 of 10 is a pass), partial credit
// named "partial", and a losing ratio measured again alone before it is charged.
#include "grade/speed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "grade/grade.hpp"
#include "grade/report.hpp"
#include "grade_fixtures.hpp"

namespace clh::grade::speed_tests {  // its own: a unity build joins this file with others
namespace {

using fixtures::kPocl;
using fixtures::kSim;
using fixtures::run;
using fixtures::tiled;
const RubricItem& speedItem() {
  return *tiled().rubric.firstOf(ItemCheck::speed);
}

SpeedSample sampleOf(const std::vector<double>& ratios) {
  SpeedSample s;
  s.sizes = {{"N", 128}, {"TS", 16}};
  s.ratios = ratios;
  s.reference_ns = 1e6;
  s.student_ns = quantile(ratios, 0.5) * 1e6;
  return s;
}

Grade gradeWith(const SpeedSample& s) {
  DeviceRun pocl = run(kPocl, false);
  pocl.speed = s;
  Submission sub{"alice", "/home/ta/batch/alice.cl", ""};
  GradeContext ctx;
  ctx.assignment_argument = "mmul_tiled";
  ctx.devices = {kPocl, kSim};
  return gradeSubmission(tiled(), sub, {pocl, run(kSim, true)}, ctx);
}

TEST(SpeedPairs, MedianAndQuartilesOfTheRoundsRatios) {
  EXPECT_DOUBLE_EQ(quantile({}, 0.5), 0);
  EXPECT_DOUBLE_EQ(quantile({1.4, 1.0, 1.2, 1.3, 1.1}, 0.5), 1.2);
  EXPECT_DOUBLE_EQ(quantile({1.0, 2.0, 4.0, 3.0}, 0.5), 2.5);  // even: the middle two's mean
  const RatioSpread s = ratioSpread({1.50, 1.35, 1.42, 1.60, 1.38, 1.44, 1.51, 1.40, 3.90});
  EXPECT_EQ(s.rounds, 9);
  EXPECT_DOUBLE_EQ(s.median, 1.44);
  EXPECT_DOUBLE_EQ(s.q1, 1.40);
  EXPECT_DOUBLE_EQ(s.q3, 1.51);
  EXPECT_DOUBLE_EQ(s.min, 1.35);
  EXPECT_DOUBLE_EQ(s.max, 3.90);
}

TEST(SpeedPairs, APlantedSlowRoundMovesNeitherTheMedianNorTheVerdict) {
  // The student's kernel takes 1.8x the reference's in every round; the machine is busy (2x) in
  // all rounds but one, and in that round only the reference's run found it quiet. Then one
  // round where the student's run alone was slowed 4x.
  std::vector<double> student, reference;
  for (int r = 0; r < 9; ++r) {
    const double load = r == 3 ? 1.0 : 2.0;
    reference.push_back(1e6 * load);
    student.push_back(1.8e6 * (r == 3 ? 2.0 : load) * (r == 6 ? 4.0 : 1.0));
  }
  std::vector<double> ratios;
  for (size_t r = 0; r < student.size(); ++r) ratios.push_back(student[r] / reference[r]);
  const double ofBests = *std::min_element(student.begin(), student.end()) /
                         *std::min_element(reference.begin(), reference.end());
  EXPECT_NEAR(ofBests, 3.6, 1e-9);  // the old rule: the fastest of each
  EXPECT_LT(speedPoints(speedItem(), ofBests), 10) << "a ratio of the fastest runs loses points";
  EXPECT_NEAR(quantile(ratios, 0.5), 1.8, 1e-9);

  const Grade g = gradeWith(sampleOf(ratios));
  const ItemGrade* speed = g.item("speed");
  ASSERT_NE(speed, nullptr);
  EXPECT_DOUBLE_EQ(speed->points, 10);
  EXPECT_TRUE(speed->passed);
  ASSERT_EQ(speed->evidence.size(), 1u);
  EXPECT_NE(speed->evidence[0].note.find("measured 1.80x the reference solution's time (median of "
                                         "9 rounds, quartiles 1.80-1.80x)"),
            std::string::npos)
      << speed->evidence[0].note;
}

TEST(SpeedPairs, TheOrderTurnsEveryRound) {
  int studentFirst = 0;
  for (int r = 0; r < kMinSpeedRounds; ++r) {
    studentFirst += studentFirstInRound(r);
    if (r > 0) {
      EXPECT_NE(studentFirstInRound(r), studentFirstInRound(r - 1)) << r;
    }
  }
  EXPECT_GE(studentFirst, kMinSpeedRounds / 2);
  EXPECT_LE(studentFirst, kMinSpeedRounds / 2 + 1);
  SpeedRule few;
  few.repeats = 3;
  EXPECT_EQ(speedRounds(few), kMinSpeedRounds);
  SpeedRule many;
  many.repeats = 15;
  EXPECT_EQ(speedRounds(many), 15);
}

TEST(SpeedPoints, RoundedPointsAtTheMaximumAreAPass) {
  // full within 2x, none beyond 4x: 2.0004x earns 9.998 of 10, shown and counted as 10.
  EXPECT_DOUBLE_EQ(roundPoints(9.998), 10);
  EXPECT_DOUBLE_EQ(roundPoints(7.4949), 7.49);
  const Grade g = gradeWith(sampleOf({2.0004}));
  const ItemGrade* speed = g.item("speed");
  EXPECT_DOUBLE_EQ(speed->points, 10);
  EXPECT_TRUE(speed->passed);
  EXPECT_FALSE(speed->partial());
  EXPECT_DOUBLE_EQ(g.points, 100);
  std::ostringstream md, csv, table;
  writeFeedbackMarkdown(md, g);
  EXPECT_NE(md.str().find(speed->title + " | pass | 10 / 10 |"), std::string::npos) << md.str();
  EXPECT_EQ(md.str().find("fail"), std::string::npos) << md.str();
  writeGradebookCsv(csv, tiled().rubric, {g});
  EXPECT_NE(csv.str().find("alice,10,50,30,10,100\n"), std::string::npos) << csv.str();
  writeSummaryTable(table, tiled().rubric, {g});
  EXPECT_EQ(table.str().find("speed"), std::string::npos) << table.str();
  EXPECT_EQ(nlohmann::json(*speed)["result"], "pass");
  EXPECT_FALSE(speedNeedsRerun(speedItem(), sampleOf({2.0004})));
}

TEST(SpeedPoints, PartialCreditIsPartialNeverFail) {
  const Grade g = gradeWith(sampleOf({3.0, 3.1, 2.9}));  // 5 of 10
  const ItemGrade* speed = g.item("speed");
  EXPECT_DOUBLE_EQ(speed->points, 5);
  EXPECT_FALSE(speed->passed);
  EXPECT_TRUE(speed->partial());
  EXPECT_EQ(nlohmann::json(*speed)["result"], "partial");
  std::ostringstream md, table;
  writeFeedbackMarkdown(md, g);
  EXPECT_NE(md.str().find(speed->title + " | partial | 5 / 10 |"), std::string::npos) << md.str();
  EXPECT_EQ(md.str().find("fail"), std::string::npos) << md.str();
  writeSummaryTable(table, tiled().rubric, {g});
  EXPECT_NE(table.str().find("speed: partial"), std::string::npos) << table.str();
  // Nothing left: a fail.
  const Grade slow = gradeWith(sampleOf({4.5}));
  const ItemGrade* none = slow.item("speed");
  EXPECT_DOUBLE_EQ(none->points, 0);
  EXPECT_FALSE(none->partial());
  EXPECT_EQ(nlohmann::json(*none)["result"], "fail");
}

TEST(SpeedRerun, OnlyALosingRatioIsMeasuredAgainAlone) {
  int calls = 0;
  auto alone = [&](std::vector<double> ratios) {
    return [&calls, ratios] {
      ++calls;
      return AloneMeasurement{sampleOf(ratios), ""};
    };
  };
  // Keeps every point: no rerun.
  SpeedSample kept = speedThatCounts(speedItem(), sampleOf({1.9, 2.0, 1.8}), alone({1.0}));
  EXPECT_EQ(calls, 0);
  EXPECT_FALSE(kept.rerun);
  // A kernel that failed at the timed case: no timing, nothing the machine's load explains.
  SpeedSample wrong;
  wrong.problem = "at the timed case N=128,TS=16: C differs";
  speedThatCounts(speedItem(), wrong, alone({1.0}));
  EXPECT_EQ(calls, 0);

  // Loses points (2.5x: 7.5 of 10): measured again; the rerun alone is better and counts.
  SpeedSample better = speedThatCounts(speedItem(), sampleOf({2.5, 2.4, 2.6}), alone({1.4, 1.5}));
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(better.rerun);
  EXPECT_TRUE(better.alone);
  EXPECT_NEAR(better.ratio(), 1.45, 1e-12);
  EXPECT_EQ(better.other_ratios, (std::vector<double>{2.5, 2.4, 2.6}));
  const Grade g = gradeWith(better);
  EXPECT_DOUBLE_EQ(g.item("speed")->points, 10);
  EXPECT_NE(g.item("speed")->evidence.at(0).note.find("alone on the device: the first, beside the "
                                                      "rest of the batch, gave 2.50x"),
            std::string::npos)
      << g.item("speed")->evidence.at(0).note;

  // The rerun is worse: the first counts (a rerun never charges more).
  SpeedSample worse = speedThatCounts(speedItem(), sampleOf({2.5}), alone({3.5}));
  EXPECT_EQ(calls, 2);
  EXPECT_TRUE(worse.rerun);
  EXPECT_FALSE(worse.alone);
  EXPECT_DOUBLE_EQ(worse.ratio(), 2.5);
  EXPECT_DOUBLE_EQ(gradeWith(worse).item("speed")->points, 7.5);
  EXPECT_NE(gradeWith(worse).item("speed")->evidence.at(0).note.find("the rerun gave 3.50x"),
            std::string::npos);

  // The rerun gave no timing: the first counts, and the feedback says why.
  SpeedSample lost = speedThatCounts(speedItem(), sampleOf({2.5}), [&] {
    ++calls;
    return AloneMeasurement{std::nullopt, "crashed (SIGSEGV)"};
  });
  EXPECT_EQ(calls, 3);
  EXPECT_DOUBLE_EQ(lost.ratio(), 2.5);
  EXPECT_EQ(lost.rerun_problem, "crashed (SIGSEGV)");
}

TEST(SpeedRerun, TheJsonKeepsTheRoundsAndTheRerun) {
  SpeedSample s = confirmedSpeed(sampleOf({2.5, 2.6, 2.4}), sampleOf({1.2, 1.3, 1.1}), "");
  const nlohmann::json j = s;
  EXPECT_EQ(j["rounds"], 3);
  EXPECT_DOUBLE_EQ(j["ratio"].get<double>(), 1.2);
  EXPECT_NEAR(j["quartiles"][0].get<double>(), 1.15, 1e-12);
  EXPECT_NEAR(j["quartiles"][1].get<double>(), 1.25, 1e-12);
  EXPECT_EQ(j["rerun"]["counted"], "alone");
  EXPECT_DOUBLE_EQ(j["rerun"]["other_ratio"].get<double>(), 2.5);
  const SpeedSample back = j.get<SpeedSample>();
  EXPECT_EQ(back.ratios, s.ratios);
  EXPECT_TRUE(back.rerun && back.alone);
  EXPECT_EQ(back.other_ratios, s.other_ratios);
  // A file of the old form (the fastest of each, no rounds) still reads.
  const SpeedSample old =
      nlohmann::json::parse(R"({"student_ns": 3e6, "reference_ns": 2e6})").get<SpeedSample>();
  EXPECT_DOUBLE_EQ(old.ratio(), 1.5);
}

}  // namespace
}  // namespace clh::grade::speed_tests
