// Tests of the grading rules on hand-made device runs (no device): which item each finding costs,
// symptoms on the simulator, tool failures that cost nothing, items blocked by a failed build, the
// speed score, the replay commands, the JSON round trip, and reading a child's events.
#include <gtest/gtest.h>
#include <signal.h>

#include <sstream>

#include "cl/compile_watch.hpp"
#include "cl/session.hpp"
#include "grade/device_job.hpp"
#include "grade/grade.hpp"
#include "grade_fixtures.hpp"

namespace clh::grade {
namespace {

using fixtures::kPocl;
using fixtures::kRoot;
using fixtures::kSim;
using fixtures::run;
using fixtures::tiled;
using fixtures::vadd;

Finding finding(FindingKind kind, const std::string& summary = "s") {
  Finding f;
  f.kind = kind;
  f.summary = summary;
  return f;
}

DeviceRun lostRun(const std::string& device, bool simulator, RunEnd end, FindingKind kind) {
  DeviceRun r;
  r.device = device;
  r.simulator = simulator;
  r.end = end;
  r.cases_started = 2;
  CaseOutcome c;
  c.sizes = {{"G", 8}, {"L", 4}, {"N", 7}};
  c.findings.push_back(finding(kind, "lost"));
  r.lost = c;
  return r;
}

const Submission kSub{"alice", "/home/ta/batch/alice.cl", {}};

Grade grade(const Assignment& a, std::vector<DeviceRun> runs) {
  GradeContext ctx;
  ctx.assignment_argument = a.name;
  ctx.seed = 7;
  return gradeSubmission(a, kSub, runs, ctx);
}

// "id=pass|fail" for each item, for compact expectations.
std::string verdicts(const Grade& g) {
  std::string out;
  for (const auto& i : g.items)
    out += (out.empty() ? "" : " ") + i.id + "=" +
           (i.passed               ? "pass"
            : i.blocked_by.empty() ? "fail"
                                   : "blocked");
  return out;
}

TEST(Grading, CleanRunsEarnEverything) {
  Grade g = grade(vadd(), {run(kPocl, false), run(kSim, true)});
  EXPECT_EQ(verdicts(g), "builds=pass correct=pass clean=pass");
  EXPECT_EQ(g.points, 100);
  EXPECT_EQ(g.max_points, 100);
  EXPECT_FALSE(g.review);
  EXPECT_EQ(g.file, "alice.cl");
  EXPECT_EQ(g.assignment, "vadd");
}

TEST(Grading, EachKindCostsItsOwnItem) {
  struct Case {
    FindingKind kind;
    bool simulator;
    const char* expect;
  } cases[] = {
      {FindingKind::wrong_result, false, "builds=pass correct=fail clean=pass"},
      {FindingKind::unwritten, false, "builds=pass correct=fail clean=pass"},
      {FindingKind::launch_error, false, "builds=pass correct=fail clean=pass"},
      {FindingKind::race, true, "builds=pass correct=pass clean=fail"},
      {FindingKind::divergence, true, "builds=pass correct=pass clean=fail"},
      {FindingKind::uninitialized, true, "builds=pass correct=pass clean=fail"},
      // A guard zone on a real device catches an out-of-bounds write too: it costs the same item.
      {FindingKind::out_of_bounds, false, "builds=pass correct=pass clean=fail"},
      {FindingKind::build_error, false, "builds=fail correct=blocked clean=blocked"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(toString(c.kind));
    std::vector<DeviceRun> runs = {run(kPocl, false), run(kSim, true)};
    runs[c.simulator ? 1 : 0] = run(c.simulator ? kSim : kPocl, c.simulator, {finding(c.kind)});
    Grade g = grade(vadd(), runs);
    EXPECT_EQ(verdicts(g), c.expect);
    for (const auto& i : g.items) {
      if (i.passed || !i.blocked_by.empty()) continue;
      EXPECT_EQ(i.kinds, std::vector<FindingKind>{c.kind});
      EXPECT_EQ(i.points, 0);
    }
  }
}

TEST(Grading, WrongResultWithARaceOnTheSimulatorIsItsSymptom) {
  Grade g = grade(
      vadd(), {run(kPocl, false),
               run(kSim, true, {finding(FindingKind::race), finding(FindingKind::wrong_result)})});
  EXPECT_EQ(verdicts(g), "builds=pass correct=pass clean=fail");
  const ItemGrade* clean = g.item("clean");
  ASSERT_EQ(clean->evidence.size(), 1u);
  EXPECT_EQ(clean->kinds, std::vector<FindingKind>{FindingKind::race});
  ASSERT_EQ(clean->evidence[0].symptoms.size(), 1u);
  EXPECT_EQ(clean->evidence[0].symptoms[0].kind, FindingKind::wrong_result);
}

TEST(Grading, WrongResultAloneOnTheSimulatorCostsResults) {
  Grade g =
      grade(vadd(), {run(kPocl, false), run(kSim, true, {finding(FindingKind::wrong_result)})});
  EXPECT_EQ(verdicts(g), "builds=pass correct=fail clean=pass");
}

TEST(Grading, WrongResultOnARealDeviceWithABadAccessCostsBoth) {
  Grade g = grade(
      vadd(),
      {run(kPocl, false, {finding(FindingKind::out_of_bounds), finding(FindingKind::wrong_result)}),
       run(kSim, true)});
  EXPECT_EQ(verdicts(g), "builds=pass correct=fail clean=fail");
}

TEST(Grading, CrashOnARealDeviceCostsResultsAndKeepsTheSimulatorsFindings) {
  Grade g = grade(
      vadd(),
      {lostRun(kPocl, false, RunEnd::crashed, FindingKind::crash),
       run(kSim, true, {finding(FindingKind::out_of_bounds), finding(FindingKind::unwritten)})});
  EXPECT_EQ(verdicts(g), "builds=pass correct=fail clean=fail");
  const ItemGrade* correct = g.item("correct");
  EXPECT_EQ(correct->kinds, std::vector<FindingKind>{FindingKind::crash});
  ASSERT_EQ(correct->evidence.size(), 1u);
  EXPECT_FALSE(correct->evidence[0].shrunk);
  EXPECT_EQ(g.points, 10);
}

// The simulator crashed on the kernel: what PoCL judged (the build, the results) stands and the
// crash costs nothing there; the simulator's item, which no other device judges, was never
// checked: no points, not assessed, and an instructor is asked to look (issue 43).
TEST(Grading, AnItemNoDeviceCouldJudgeIsNotAssessedAndAsksForAReview) {
  Grade g = grade(
      vadd(), {run(kPocl, false), lostRun(kSim, true, RunEnd::crashed, FindingKind::tool_error)});
  EXPECT_EQ(verdicts(g), "builds=pass correct=pass clean=fail");
  const ItemGrade* clean = g.item("clean");
  EXPECT_FALSE(clean->assessed);
  EXPECT_FALSE(clean->passed);
  EXPECT_EQ(clean->points, 0);
  EXPECT_FALSE(clean->not_students_fault) << "no points were kept for it";
  EXPECT_TRUE(clean->blocked_by.empty());
  EXPECT_NE(clean->note.find("not assessed: no device could judge it: " + kSim + " could not look"),
            std::string::npos)
      << clean->note;
  EXPECT_NE(clean->note.find("lost"), std::string::npos) << "and why: " << clean->note;
  EXPECT_TRUE(g.review);
  EXPECT_EQ(g.points, 70);
  // PoCL judged the results: they pass, saying the simulator could not look.
  const ItemGrade* correct = g.item("correct");
  EXPECT_TRUE(correct->passed);
  EXPECT_EQ(correct->points, 60);
  EXPECT_NE(correct->note.find("judged on " + kPocl + " alone"), std::string::npos)
      << correct->note;
  // It crashed running the kernel, so the kernel built there: nothing to excuse for the build.
  EXPECT_FALSE(g.item("builds")->not_students_fault);
}

TEST(Grading, ASimulatorToolErrorFindingLeavesItsItemUnassessed) {
  Grade g = grade(
      vadd(), {run(kPocl, false), run(kSim, true, {finding(FindingKind::tool_error, "ctpop")})});
  EXPECT_EQ(g.points, 70);
  EXPECT_FALSE(g.item("clean")->assessed);
  EXPECT_NE(g.item("clean")->note.find("ctpop"), std::string::npos) << g.item("clean")->note;
  EXPECT_TRUE(g.item("correct")->not_students_fault);  // the simulator checks results too
  EXPECT_TRUE(g.item("correct")->passed);
  EXPECT_TRUE(g.review);
}

// A timeout on the simulator, confirmed by the rerun (grade/command.cpp charges it only where
// the reference solution finished the case in a tenth of the limit): the kernel's, as on a real
// device, even though PoCL finished (a printf flood that only the simulator prints in full).
TEST(Grading, ASimulatorTimeoutChargedToTheKernelCostsResults) {
  Grade g = grade(vadd(),
                  {run(kPocl, false), lostRun(kSim, true, RunEnd::timeout, FindingKind::timeout)});
  EXPECT_EQ(verdicts(g), "builds=pass correct=fail clean=blocked");
  EXPECT_EQ(g.item("correct")->kinds, std::vector<FindingKind>{FindingKind::timeout});
  EXPECT_FALSE(g.item("correct")->not_students_fault);
  EXPECT_EQ(g.item("clean")->blocked_by, "correct");
  EXPECT_EQ(g.points, 10);
}

// A simulator too slow where the reference's time there is unknown is a tool_error (the rerun's
// verdict): excused where PoCL judged, never an item's points by itself.
TEST(Grading, TheSimulatorRunningOutOfTimeUnchargedLeavesItsItemUnassessed) {
  Grade g = grade(vadd(), {run(kPocl, false),
                           lostRun(kSim, true, RunEnd::tool_error, FindingKind::tool_error)});
  EXPECT_EQ(verdicts(g), "builds=pass correct=pass clean=fail");
  EXPECT_FALSE(g.item("clean")->assessed);
  EXPECT_TRUE(g.review);
  EXPECT_EQ(g.points, 70);
}

TEST(Grading, AHangEverywhereCostsResultsAndBlocksTheSimulatorItem) {
  Grade g = grade(vadd(), {lostRun(kPocl, false, RunEnd::timeout, FindingKind::timeout),
                           lostRun(kSim, true, RunEnd::timeout, FindingKind::timeout)});
  EXPECT_EQ(verdicts(g), "builds=pass correct=fail clean=blocked");
  EXPECT_EQ(g.item("clean")->blocked_by, "correct");
  EXPECT_EQ(g.item("correct")->kinds, std::vector<FindingKind>{FindingKind::timeout});
  EXPECT_EQ(g.points, 10);
}

TEST(Grading, ToolFailuresEverywhereAskForAReview) {
  Grade g = grade(vadd(), {lostRun(kPocl, false, RunEnd::tool_error, FindingKind::tool_error),
                           lostRun(kSim, true, RunEnd::tool_error, FindingKind::tool_error)});
  EXPECT_TRUE(g.review);
  EXPECT_FALSE(g.item("correct")->assessed);
  EXPECT_EQ(g.points, 0);
}

TEST(Grading, WithoutASimulatorTheSimulatorItemIsNotAssessed) {
  Grade g = grade(vadd(), {run(kPocl, false)});
  const ItemGrade* clean = g.item("clean");
  EXPECT_FALSE(clean->assessed);
  EXPECT_FALSE(clean->passed);
  EXPECT_NE(clean->note.find("no simulator"), std::string::npos);
  EXPECT_EQ(g.points, 70);
  EXPECT_FALSE(g.review);  // the instructor chose the devices
}

TEST(Grading, APassingSimulatorItemSaysWhatTheSimulatorCouldNotLookAt) {
  // A kernel that leaves its local size to the driver, run at a global size no group larger than
  // one work-item divides: "clean" passes, and says it could not look inside work-groups.
  DeviceRun sim = run(kSim, true);
  sim.unit->observations = {
      "'vadd' leaves its local size to the driver: on the simulator it ran "
      "in work-groups a driver could pick (4), not Oclgrind's 1x1, so races "
      "inside a group can show",
      singleItemGroupsNote("vadd")};
  Grade g = grade(vadd(), {run(kPocl, false), sim});
  const ItemGrade* clean = g.item("clean");
  EXPECT_TRUE(clean->passed);
  EXPECT_EQ(clean->points, clean->max_points);
  EXPECT_NE(clean->note.find("could not look for races between the work-items of a group"),
            std::string::npos)
      << clean->note;
  EXPECT_EQ(clean->note.find("not Oclgrind's 1x1"), std::string::npos) << "how it ran is no limit";
  // A fallback to the unoptimised build lost nothing; one to the optimised build did.
  sim.unit->observations = {simulatorBuildNote("-O2", "an LLVM instruction", "-cl-opt-disable")};
  EXPECT_EQ(grade(vadd(), {run(kPocl, false), sim}).item("clean")->note, "");
  sim.unit->observations = {simulatorBuildNote("-cl-opt-disable", "freeze", "")};
  EXPECT_NE(grade(vadd(), {run(kPocl, false), sim}).item("clean")->note.find("may hide"),
            std::string::npos);
  // The results item never carries the simulator's limits.
  EXPECT_EQ(g.item("correct")->note, "");
}

TEST(Grading, EvidenceCarriesTheSmallestCaseAndItsReplay) {
  Grade g =
      grade(vadd(), {run(kPocl, false, {finding(FindingKind::wrong_result)}), run(kSim, true)});
  const ItemGrade* correct = g.item("correct");
  ASSERT_EQ(correct->evidence.size(), 1u);
  const Evidence& e = correct->evidence[0];
  EXPECT_EQ(e.device, kPocl);
  ASSERT_TRUE(e.sizes);
  EXPECT_EQ(*e.sizes, (Sizes{{"G", 4}, {"L", 4}, {"N", 3}}));
  EXPECT_TRUE(e.shrunk);
  EXPECT_EQ(e.replay,
            "clharness grade --assignment vadd alice.cl --device Portable --seed 7 "
            "--sizes G=4,L=4,N=3");
}

DeviceRun timed(double student_ns, double reference_ns, const std::string& problem = "");

TEST(Grading, ReplayLinesNameTheDeviceBriefly) {
  const std::vector<std::string> devices = {kPocl, kSim, "Portable Computing Language: cpu-y",
                                            "NVIDIA CUDA: NVIDIA H200"};
  EXPECT_EQ(shortDeviceRegex(kSim, devices), "Oclgrind");
  EXPECT_EQ(shortDeviceRegex("NVIDIA CUDA: NVIDIA H200", devices), "NVIDIA");
  // Two PoCL devices: the platform's word is not enough, its device's first word is.
  EXPECT_EQ(shortDeviceRegex(kPocl, devices), "Portable.*pthread-x");
  EXPECT_EQ(shortDeviceRegex("Intel(R) OpenCL: a b", {"Intel(R) OpenCL: a b"}), "Intel\\(R\\)");
}

TEST(Grading, ALaunchErrorBlocksTheSimulatorItemAsABuildErrorDoes) {
  // The kernel never ran on the simulator: `clean` cannot be earned by a kernel nobody checked.
  Grade g = grade(vadd(), {run(kPocl, false, {finding(FindingKind::launch_error)}),
                           run(kSim, true, {finding(FindingKind::launch_error)})});
  EXPECT_EQ(verdicts(g), "builds=pass correct=fail clean=blocked");
  EXPECT_EQ(g.item("clean")->blocked_by, "correct");
  EXPECT_EQ(g.item("clean")->points, 0);
  EXPECT_EQ(g.points, 10);
  // A launch error on a real device only, with the simulator's run clean: it was checked there.
  Grade real =
      grade(vadd(), {run(kPocl, false, {finding(FindingKind::launch_error)}), run(kSim, true)});
  EXPECT_EQ(verdicts(real), "builds=pass correct=fail clean=pass");
}

TEST(Grading, AnUninitializedValueAfterAStrayReadIsItsConsequence) {
  Finding stray = finding(FindingKind::out_of_bounds,
                          "Invalid read of size 4 at global memory, past the end of buffer "
                          "argument 'a' (64 bytes)");
  Grade g = grade(
      vadd(), {run(kPocl, false), run(kSim, true, {stray, finding(FindingKind::uninitialized)})});
  const ItemGrade* clean = g.item("clean");
  EXPECT_EQ(clean->kinds, std::vector<FindingKind>{FindingKind::out_of_bounds});
  ASSERT_EQ(clean->evidence.size(), 1u);
  ASSERT_EQ(clean->evidence[0].findings.size(), 1u) << "the cause, once";
  ASSERT_EQ(clean->evidence[0].symptoms.size(), 1u);
  EXPECT_EQ(clean->evidence[0].symptoms[0].kind, FindingKind::uninitialized);
  // A stray write does not produce the value: an uninitialized read beside it is its own finding.
  Finding write = finding(FindingKind::out_of_bounds, "Invalid write of size 4 at global memory");
  Grade w = grade(
      vadd(), {run(kPocl, false), run(kSim, true, {write, finding(FindingKind::uninitialized)})});
  EXPECT_EQ(w.item("clean")->kinds,
            (std::vector<FindingKind>{FindingKind::out_of_bounds, FindingKind::uninitialized}));
}

TEST(Grading, TheStudentsParameterNamesAndTheInterfaceComeFirst) {
  Submission swapped{"bob", "/home/ta/batch/bob.cl",
                     "__kernel void vadd(__global float* c, __global const float* a, __global "
                     "const float* b, const unsigned int count) { }"};
  Finding guard = finding(FindingKind::out_of_bounds,
                          "buffer 'a' was written outside its 12 bytes: byte 0 past its end "
                          "(element 3) (guard zone)");
  Finding unwritten = finding(FindingKind::unwritten, "c: 3 of 3 elements differ");
  unwritten.mismatches.push_back({"c", {0}, "0", "1", true});
  GradeContext ctx;
  ctx.assignment_argument = "vadd";
  Grade g = gradeSubmission(vadd(), swapped,
                            {run(kPocl, false, {guard, unwritten}), run(kSim, true)}, ctx);
  ASSERT_EQ(g.interface_differences.size(), 1u);
  EXPECT_NE(g.interface_differences[0].find("another order"), std::string::npos);
  const Finding& f = g.item("clean")->evidence.at(0).findings.at(0);
  EXPECT_EQ(f.summary.rfind("buffer 'c' was written outside", 0), 0u) << f.summary;
  const Finding& u = g.item("correct")->evidence.at(0).findings.at(0);
  EXPECT_EQ(u.summary, "b: 3 of 3 elements differ");  // the assignment's c is this kernel's b
  EXPECT_EQ(u.mismatches.at(0).buffer, "b");

  Submission three{"carol", "carol.cl",
                   "__kernel void vadd(__global float* a, __global float* b, __global float* c) "
                   "{}"};
  Grade t = gradeSubmission(vadd(), three,
                            {run(kPocl, false, {finding(FindingKind::launch_error)}),
                             run(kSim, true, {finding(FindingKind::launch_error)})},
                            ctx);
  EXPECT_NE(t.item("correct")->note.find("takes 3 parameters"), std::string::npos)
      << t.item("correct")->note;
}

TEST(Grading, ARefusedSubmissionLosesEveryItem) {
  GradeContext ctx;
  ctx.assignment_argument = "vadd";
  Grade g = refusedGrade(vadd(), kSub, "line 1: '#include' is not allowed", ctx);
  EXPECT_EQ(verdicts(g), "builds=fail correct=blocked clean=blocked");
  EXPECT_EQ(g.points, 0);
  EXPECT_EQ(g.max_points, 100);
  const ItemGrade* builds = g.item("builds");
  EXPECT_EQ(builds->kinds, std::vector<FindingKind>{FindingKind::build_error});
  EXPECT_NE(builds->evidence.at(0).findings.at(0).summary.find("#include' is not allowed"),
            std::string::npos);
  EXPECT_TRUE(g.runs.empty()) << "no device saw it";
}

TEST(Grading, AUsesItemLooksAtTheKernelsCode) {
  Assignment a = tiled();
  RubricItem tiles;
  tiles.id = "tiles";
  tiles.title = "Uses local-memory tiles";
  tiles.points = 10;
  tiles.check = ItemCheck::uses;
  tiles.uses = {"local_memory", "barrier"};
  a.rubric.items.push_back(tiles);
  GradeContext ctx;
  ctx.assignment_argument = "mmul_tiled";
  Submission plain{"dave", "dave.cl",
                   "__kernel void mmul(const int N, __global float* A, __global float* B, "
                   "__global float* C) { /* no __local here, no barrier( */ }"};
  Grade g = gradeSubmission(a, plain, {timed(1e6, 1e6), run(kSim, true)}, ctx);
  const ItemGrade* item = g.item("tiles");
  ASSERT_NE(item, nullptr);
  EXPECT_FALSE(item->passed);
  EXPECT_EQ(item->points, 0);
  EXPECT_NE(item->note.find("local memory (__local), a barrier"), std::string::npos) << item->note;
  Submission tiled{"erin", "erin.cl",
                   "__kernel void mmul(const int N, __global float* A, __global float* B, "
                   "__global float* C) { __local float t[16]; barrier(CLK_LOCAL_MEM_FENCE); }"};
  EXPECT_TRUE(
      gradeSubmission(a, tiled, {timed(1e6, 1e6), run(kSim, true)}, ctx).item("tiles")->passed);
  // A kernel that does not build earns nothing for its technique either.
  Grade broken = gradeSubmission(
      a, tiled, {run(kPocl, false, {finding(FindingKind::build_error)}), run(kSim, true)}, ctx);
  EXPECT_EQ(broken.item("tiles")->blocked_by, "builds");
}

TEST(Grading, ItemsNoDeviceCouldJudgeAreListed) {
  Grade g = grade(vadd(), {run(kPocl, false)});
  EXPECT_EQ(g.unassessed, std::vector<std::string>{"clean"});
  nlohmann::json j = g;
  EXPECT_EQ(j["unassessed"], nlohmann::json::array({"clean"}));
  EXPECT_EQ(j.get<Grade>().unassessed, g.unassessed);
}

TEST(Grading, StudentPathsReplaceWhatTheToolsCallTheFile) {
  EXPECT_EQ(studentPaths("input.cl:4:27: error: expected ';'", kSub),
            "alice.cl:4:27: error: expected ';'");
  EXPECT_EQ(studentPaths("error: /root/.cache/pocl/kcache/tempfile_3rCgn9.cl:4:27: expected", kSub),
            "error: alice.cl:4:27: expected");
  EXPECT_EQ(studentPaths("race at /home/ta/batch/alice.cl:12", kSub), "race at alice.cl:12");
  EXPECT_EQ(studentPaths("myinput.cl stays", kSub), "myinput.cl stays");

  Finding race = finding(FindingKind::race,
                         "race between /home/ta/batch/alice.cl:14 and /home/ta/batch/alice.cl:12");
  race.lines = {{"/home/ta/batch/alice.cl", 14, "acc += a[k];"},
                {"/home/ta/batch/alice.cl", 12, "a[r] = x;"}};
  Grade g = grade(vadd(), {run(kPocl, false), run(kSim, true, {race})});
  const Finding& f = g.item("clean")->evidence.at(0).findings.at(0);
  EXPECT_EQ(f.summary, "race between alice.cl:14 and alice.cl:12");
  ASSERT_EQ(f.lines.size(), 2u);
  EXPECT_EQ(f.lines[0].file, "alice.cl");
  EXPECT_EQ(f.lines[1].line, 12);
}

TEST(Grading, FindingsNoItemClaimsCostNothing) {
  Grade g = grade(vadd(), {run(kPocl, false), run(kSim, true, {finding(FindingKind::api_error)})});
  EXPECT_EQ(g.points, 100);
  ASSERT_EQ(g.other_findings.size(), 1u);
  EXPECT_EQ(g.other_findings[0].findings.at(0).kind, FindingKind::api_error);
}

DeviceRun timed(double student_ns, double reference_ns, const std::string& problem) {
  DeviceRun r = run(kPocl, false, {}, {});
  SpeedSample s;
  s.sizes = {{"N", 128}, {"TS", 16}};
  s.student_ns = student_ns;
  s.reference_ns = reference_ns;
  s.problem = problem;
  r.speed = s;
  return r;
}

TEST(Grading, SpeedScoresTheRatioToTheReference) {
  // mmul_tiled: full points within 2x, none beyond 4x, linear between.
  struct Case {
    double student, reference, points;
  } cases[] = {{1.0, 1.0, 10}, {0.5, 1.0, 10}, {2.0, 1.0, 10},
               {3.0, 1.0, 5},  {4.0, 1.0, 0},  {9.0, 1.0, 0}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.student);
    Grade g = grade(tiled(), {timed(c.student * 1e6, c.reference * 1e6), run(kSim, true)});
    const ItemGrade* speed = g.item("speed");
    ASSERT_NE(speed, nullptr);
    EXPECT_DOUBLE_EQ(speed->points, c.points);
    EXPECT_EQ(speed->passed, c.points == 10);
    ASSERT_EQ(speed->evidence.size(), 1u);
    EXPECT_NE(speed->evidence[0].note.find("the reference solution's time"), std::string::npos);
  }
}

TEST(Grading, SpeedNeedsRightResults) {
  Grade wrongAtTimedCase =
      grade(tiled(), {timed(0, 0, "at the timed case N=128,TS=16: C differs"), run(kSim, true)});
  EXPECT_EQ(wrongAtTimedCase.item("speed")->points, 0);
  EXPECT_FALSE(wrongAtTimedCase.item("speed")->passed);

  DeviceRun wrong = timed(1e6, 1e6);
  wrong.unit->failing = CaseOutcome{};
  wrong.unit->failing->findings.push_back(finding(FindingKind::wrong_result));
  Grade g = grade(tiled(), {wrong, run(kSim, true)});
  EXPECT_EQ(g.item("speed")->blocked_by, "correct");
  EXPECT_EQ(g.item("speed")->points, 0);
}

TEST(Grading, JsonRoundTripKeepsTheGrade) {
  Grade g = grade(
      vadd(), {lostRun(kPocl, false, RunEnd::crashed, FindingKind::crash),
               run(kSim, true, {finding(FindingKind::race), finding(FindingKind::wrong_result)})});
  g.fingerprint = "00ff";
  nlohmann::json j = g;
  EXPECT_EQ(j["schema"], "clharness-grade/1");
  EXPECT_EQ(j["items"][1]["id"], "correct");
  EXPECT_EQ(j["items"][1]["result"], "fail");
  EXPECT_EQ(j["items"][1]["kinds"], nlohmann::json::array({"crash"}));
  EXPECT_EQ(j["items"][1]["max_points"], 60);
  EXPECT_EQ(j["items"][0]["result"], "pass");
  Grade back = j.get<Grade>();
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_THROW(nlohmann::json({{"schema", "other/1"}}).get<Grade>(), std::runtime_error);
}

TEST(Grading, FingerprintChangesWithWhatTheGradeDependsOn) {
  std::vector<std::string> devs = {kPocl, kSim};
  std::string base = gradeFingerprint(vadd(), "kernel", 1, 40, 10, devs);
  EXPECT_EQ(base, gradeFingerprint(vadd(), "kernel", 1, 40, 10, {kSim, kPocl}));  // device order
  EXPECT_NE(base, gradeFingerprint(vadd(), "kernel2", 1, 40, 10, devs));
  EXPECT_NE(base, gradeFingerprint(vadd(), "kernel", 2, 40, 10, devs));
  EXPECT_NE(base, gradeFingerprint(vadd(), "kernel", 1, 41, 10, devs));
  EXPECT_NE(base, gradeFingerprint(vadd(), "kernel", 1, 40, 10, {kPocl}));
  EXPECT_NE(base, gradeFingerprint(tiled(), "kernel", 1, 40, 10, devs));
}

RunDevice pocl() {
  return {kPocl, "cpu", false};
}
RunDevice sim() {
  return {kSim, "simulator", true};
}

TEST(ChildEvents, ACompletedChildGivesItsUnit) {
  std::istringstream ev(R"({"event":"case_start","sizes":{"N":1}}
{"event":"case_start","sizes":{"N":2}}
{"event":"unit","unit":{"device":"x","status":"pass","cases_run":2,"seconds":0.5}}
)");
  DeviceRun r = collectDeviceRun(ev, ChildEnd{}, pocl());
  EXPECT_EQ(r.end, RunEnd::completed);
  ASSERT_TRUE(r.unit);
  EXPECT_EQ(r.unit->cases_run, 2);
  EXPECT_EQ(r.cases_started, 2);
  EXPECT_EQ(r.distinct_cases, 2);
  EXPECT_FALSE(r.lost);
}

TEST(ChildEvents, DistinctCasesLeaveOutTheTimedCase) {
  std::istringstream ev(R"({"event":"case_start","sizes":{"N":1}}
{"event":"case_start","sizes":{"N":2}}
{"event":"unit","unit":{"device":"x","status":"pass","cases_run":2,"seconds":0.5}}
{"event":"case_start","sizes":{"N":128},"phase":"speed"}
)");
  DeviceRun r = collectDeviceRun(ev, ChildEnd{}, pocl());
  EXPECT_EQ(r.cases_started, 3);
  EXPECT_EQ(r.distinct_cases, 2);
}

TEST(ChildEvents, ATimeoutKeepsTheCaseThatWasRunning) {
  std::istringstream ev(
      "{\"event\":\"case_start\",\"sizes\":{\"N\":1}}\n{\"event\":\"case_start\",\"sizes\":{\"N\":"
      "37}}\n");
  ChildEnd end;
  end.timed_out = true;
  end.limit_s = 6;
  DeviceRun r = collectDeviceRun(ev, end, pocl());
  EXPECT_EQ(r.end, RunEnd::timeout);
  ASSERT_TRUE(r.lost);
  EXPECT_EQ(r.lost->sizes, (Sizes{{"N", 37}}));
  EXPECT_EQ(r.lost->findings.at(0).kind, FindingKind::timeout);
  EXPECT_NE(r.lost->findings[0].summary.find("(6 s)"), std::string::npos);
}

TEST(ChildEvents, ACrashIsTheKernelsOnARealDeviceAndTheToolsOnTheSimulator) {
  ChildEnd end;
  end.signal = SIGSEGV;
  end.log_tail = "pocl says goodbye";
  std::istringstream ev1(
      "{\"event\":\"case_start\",\"sizes\":{\"N\":5}}\n{\"event\":\"uni");  // cut short
  DeviceRun real = collectDeviceRun(ev1, end, pocl());
  EXPECT_EQ(real.end, RunEnd::crashed);
  EXPECT_EQ(real.lost->findings.at(0).kind, FindingKind::crash);
  EXPECT_NE(real.lost->findings[0].summary.find("SIGSEGV"), std::string::npos);
  EXPECT_EQ(real.lost->findings[0].raw, "pocl says goodbye");
  EXPECT_EQ(real.lost->sizes, (Sizes{{"N", 5}}));

  std::istringstream ev2("");
  DeviceRun simulated = collectDeviceRun(ev2, end, sim());
  EXPECT_EQ(simulated.lost->findings.at(0).kind, FindingKind::tool_error);
  EXPECT_EQ(simulated.cases_started, 0);
}

// Issue 43, item 6: a child that died in the driver's compile step of a launch (the child's watch
// wrote the event before the signal's default action) is the driver's, excused; the same death
// without the event, with the kernel's code running, stays the kernel's crash.
TEST(ChildEvents, ADeathInALaunchsCompileIsTheDriversAndOneInTheKernelsCodeTheKernels) {
  ChildEnd end;
  end.signal = SIGABRT;
  end.log_tail = "an assertion of the compiler";
  std::istringstream withEvent(
      "{\"event\":\"case_start\",\"sizes\":{\"N\":23}}\n"
      "{\"event\":\"launch_compile_crash\",\"local\":[2,2]}\n");
  const DeviceRun driver = collectDeviceRun(withEvent, end, pocl());
  ASSERT_TRUE(driver.lost);
  EXPECT_EQ(driver.lost->findings.at(0).kind, FindingKind::tool_error);
  EXPECT_TRUE(clh::isLaunchCompileCrash(driver.lost->findings[0].summary))
      << driver.lost->findings[0].summary;
  EXPECT_NE(driver.lost->findings[0].summary.find("local size 2x2"), std::string::npos);
  EXPECT_NE(driver.lost->findings[0].summary.find("SIGABRT"), std::string::npos);
  EXPECT_EQ(driver.lost->sizes, (Sizes{{"N", 23}}));

  std::istringstream without("{\"event\":\"case_start\",\"sizes\":{\"N\":23}}\n");
  const DeviceRun kernel = collectDeviceRun(without, end, pocl());
  EXPECT_EQ(kernel.lost->findings.at(0).kind, FindingKind::crash);
  EXPECT_FALSE(clh::isLaunchCompileCrash(kernel.lost->findings[0].summary));
}

// The probe: `#pragma clang __debug crash` killed the child inside clBuildProgram and was charged
// as the kernel's crash at run time. A death between build_start and build_end is the compiler's:
// a build finding where the reference solution builds on the device, else the driver's.
TEST(ChildEvents, ADeathInsideTheCompilerIsABuildFindingWhereTheReferenceBuilds) {
  const std::string events =
      "{\"event\":\"case_start\",\"sizes\":{\"N\":5}}\n{\"event\":\"build_start\"}\n";
  ChildEnd end;
  end.signal = SIGSEGV;
  end.reference_built = true;
  for (const RunDevice& dev : {pocl(), sim()}) {
    SCOPED_TRACE(dev.name);
    std::istringstream ev(events);
    DeviceRun r = collectDeviceRun(ev, end, dev);
    EXPECT_EQ(r.end, RunEnd::crashed);
    ASSERT_TRUE(r.lost);
    EXPECT_EQ(r.lost->findings.at(0).kind, FindingKind::build_error);
    EXPECT_NE(r.lost->findings[0].summary.find(
                  "the compiler crashed while building your kernel (SIGSEGV)"),
              std::string::npos)
        << r.lost->findings[0].summary;
  }
  end.reference_built = false;
  std::istringstream ev(events);
  DeviceRun r = collectDeviceRun(ev, end, pocl());
  EXPECT_EQ(r.lost->findings.at(0).kind, FindingKind::tool_error);
  EXPECT_NE(r.lost->findings[0].summary.find("the compiler of " + kPocl + " crashed (SIGSEGV)"),
            std::string::npos)
      << r.lost->findings[0].summary;
  // A build that ended before the death: the kernel's crash, as before.
  std::istringstream after(events + "{\"event\":\"build_end\"}\n");
  end.reference_built = true;
  EXPECT_EQ(collectDeviceRun(after, end, pocl()).lost->findings.at(0).kind, FindingKind::crash);
}

TEST(ChildEvents, TheCpuLimitIsATimeout) {
  ChildEnd end;
  end.signal = SIGXCPU;
  std::istringstream ev("");
  DeviceRun r = collectDeviceRun(ev, end, pocl());
  EXPECT_EQ(r.end, RunEnd::timeout);
  EXPECT_EQ(r.lost->findings.at(0).kind, FindingKind::timeout);
}

TEST(ChildEvents, AnErrorOrNoResultIsAToolError) {
  std::istringstream ev("{\"event\":\"error\",\"message\":\"plugin missing\"}\n");
  ChildEnd end;
  end.exit_code = 2;
  DeviceRun r = collectDeviceRun(ev, end, sim());
  EXPECT_EQ(r.end, RunEnd::tool_error);
  EXPECT_NE(r.lost->findings.at(0).summary.find("plugin missing"), std::string::npos);

  std::istringstream none("");
  DeviceRun quiet = collectDeviceRun(none, end, pocl());
  EXPECT_EQ(quiet.end, RunEnd::tool_error);

  ChildEnd notStarted;
  notStarted.started = false;
  notStarted.error = "no such file";
  std::istringstream none2("");
  EXPECT_EQ(collectDeviceRun(none2, notStarted, pocl()).lost->findings.at(0).kind,
            FindingKind::tool_error);
}

}  // namespace
}  // namespace clh::grade
