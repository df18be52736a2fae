// End-to-end tests: run the built clharness tool on fixture specs (tests/e2e/specs) on PoCL and
// check what a user sees: exit codes, messages, the shrunk case, the replay command, the reports.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "support/tool_run.hpp"

namespace {

using clh::test::ToolRun;
const auto run = &clh::test::runTool;

std::string spec(const std::string& name) {
  return std::string(CLH_E2E_DIR) + "/specs/" + name + ".yaml";
}

const std::string kPocl = " --device 'Portable Computing Language'";
// A spec's cases unit and nothing else: no launch family, no driver checks (a test whose point is
// the cases; each left-out part is some seconds of PoCL compiles and launches).
const std::string kCasesOnly = " --launch-shapes 0 --no-driver-checks";

bool havePocl() {
  return run("devices --device 'Portable Computing Language'").code == 0;
}

#define REQUIRE_POCL()                                      \
  do {                                                      \
    if (!havePocl()) GTEST_SKIP() << "no PoCL device here"; \
  } while (0)

TEST(E2E, WrongIndexFailsShrinksAndReplays) {
  REQUIRE_POCL();
  // The cases unit alone: the launch family's verdicts are JsonAndJUnitReports'.
  ToolRun r = run("check " + spec("wrong_index") + kPocl + " --cases 50" + kCasesOnly);
  EXPECT_EQ(r.code, 1) << r.out;
  // The kernel is right only for N == 1, so the smallest failing case has N == 2 and the smallest
  // L.
  EXPECT_NE(r.out.find("smallest failing case: G=2,L=1,N=2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrong_result: c: 2 of 2 elements differ"), std::string::npos) << r.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("replay: clharness (check [^\n]+)"))) << r.out;
  ToolRun replay = run(m[1].str());
  EXPECT_EQ(replay.code, 1) << replay.out;
  EXPECT_NE(replay.out.find("smallest failing case: G=2,L=1,N=2"), std::string::npos) << replay.out;
  // The replayed case shows the same values as the original run.
  std::smatch first;
  ASSERT_TRUE(std::regex_search(r.out, first, std::regex(R"(c\[0\]: got [^\n]+)")));
  EXPECT_NE(replay.out.find(first[0].str()), std::string::npos) << replay.out;
}

TEST(E2E, JsonAndJUnitReports) {
  REQUIRE_POCL();
  std::string json = ::testing::TempDir() + "/report.json",
              junit = ::testing::TempDir() + "/report.xml";
  ToolRun r =
      run("check " + spec("wrong_index") + " " + spec("bug_gone") + " " + spec("expected_bug") +
          kPocl + " --cases 20 --json " + json + " --junit " + junit);
  EXPECT_EQ(r.code, 1) << r.out;
  std::ifstream jf(json);
  auto j = nlohmann::json::parse(jf);
  EXPECT_EQ(j["schema"], "clharness-report/1");
  // Each spec has a unit of cases and a unit of launch shapes.
  ASSERT_EQ(j["units"].size(), 6u);
  std::map<std::string, std::string> status, launch;
  for (const auto& u : j["units"])
    (u["family"] == "launch" ? launch : status)[u["spec"]] = u["status"];
  ASSERT_EQ(status.size(), 3u);
  ASSERT_EQ(launch.size(), 3u);
  EXPECT_EQ(status["wrong_index"], "fail");
  EXPECT_EQ(status["bug_gone"], "unexpected_pass");
  EXPECT_EQ(status["expected_bug"], "expected_failure");
  // Under launch shapes that must run, the wrong kernel's results disagree again; the expected
  // bug's do as the spec says, and the fixed kernel's agree.
  EXPECT_EQ(launch["wrong_index"], "fail");
  EXPECT_EQ(launch["expected_bug"], "pass");
  EXPECT_EQ(launch["bug_gone"], "pass");
  for (const auto& u : j["units"])
    if (u["spec"] == "wrong_index" && u["family"] == "cases") {
      EXPECT_EQ(u["failing_case"]["sizes"]["N"], 2);
      EXPECT_EQ(u["failing_case"]["findings"][0]["kind"], "wrong_result");
      EXPECT_EQ(u["failing_case"]["findings"][0]["mismatches"][0]["index"][0], 0);
    }
  std::ifstream xf(junit);
  std::stringstream xs;
  xs << xf.rdbuf();
  std::string xml = xs.str();
  // One testcase per unit, and one per finding of each device's driver section.
  size_t driver_findings = 0;
  for (const auto& d : j["drivers"]) driver_findings += d["findings"].size();
  EXPECT_NE(xml.find("<testsuites name=\"clharness\" tests=\"" +
                     std::to_string(6 + driver_findings) + "\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<testsuite name=\"drivers: Portable Computing Language"), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("name=\"Portable Computing Language"), std::string::npos) << xml;
  EXPECT_NE(xml.find("[launch]\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<testcase classname=\"wrong_index\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("type=\"wrong_result\""), std::string::npos) << xml;
}

TEST(E2E, ExpectedBugPassesAndItsAbsenceFails) {
  REQUIRE_POCL();
  ToolRun expected = run("check " + spec("expected_bug") + kPocl + " --cases 20" + kCasesOnly);
  EXPECT_EQ(expected.code, 0) << expected.out;
  EXPECT_NE(expected.out.find("expected failure"), std::string::npos) << expected.out;
  EXPECT_NE(expected.out.find("N=2"), std::string::npos) << expected.out;
  ToolRun gone = run("check " + spec("bug_gone") + kPocl + " --cases 20" + kCasesOnly);
  EXPECT_EQ(gone.code, 1) << gone.out;
  EXPECT_NE(gone.out.find("was the published bug fixed?"), std::string::npos) << gone.out;
}

TEST(E2E, SyntaxErrorShowsTheBuildLog) {
  REQUIRE_POCL();
  ToolRun r = run("check " + spec("syntax_error") + kPocl + " --cases 5" + kCasesOnly);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("build_error"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--- log ---"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error:"), std::string::npos) << r.out;  // the compiler's own words
}

TEST(E2E, CrashIsReportedAndTheRunGoesOn) {
  REQUIRE_POCL();
  // Two specs: the crash of the first must not stop the second. Their random cases alone: a
  // launch shape that crashes is family_test.cpp's (PoCL's zero_local), the driver section
  // DriverSectionE2E's, and wild_write's 100 launch shapes each crashing cost most of this test.
  ToolRun r = run("check " + spec("wild_write") + " " + spec("bug_gone") + kPocl +
                  " --cases 5 --launch-shapes 0 --no-driver-checks");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("crash: the process running the kernel died from SIGSEGV"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("bug_gone on Portable"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("replay: clharness check"), std::string::npos) << r.out;
}

// A private array overflow only sizes beyond the simulator's range reach (N > 16): the real device
// shows a crash or wrong results without a line; the simulator replays the smallest failing case
// and names the kind and the statement. The unit's verdict stays the real device's.
TEST(E2E, AFaultBeyondTheSimulatorsRangeGetsAKindAndALine) {
  REQUIRE_POCL();
  if (run("devices --device Oclgrind").code != 0) GTEST_SKIP() << "no simulator here";
  const std::string args = "check " + spec("scratch_overflow") + kPocl +
                           " --cases 20 --launch-shapes 0 --no-driver-checks";
  const ToolRun r = run(args);
  if (r.code == 0) GTEST_SKIP() << "PoCL showed nothing of the overflow here:\n" << r.out;
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("out_of_bounds: on the simulator, the same case"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("vadd_scratch_overflow.cl:11"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("replayed the smallest case N="), std::string::npos) << r.out;
  // Without the replay, the device's failure alone, with no line.
  const ToolRun bare = run(args + " --replay-budget 0");
  EXPECT_EQ(bare.code, 1) << bare.out;
  EXPECT_EQ(bare.out.find("on the simulator"), std::string::npos) << bare.out;
}

// The kernel never ends, so the limit only has to be reached: 1 s, and 2 s for the confirming
// rerun (a slow compile on a cold cache is a timeout too, of the same unit).
TEST(E2E, HangIsStoppedAtTheTimeout) {
  REQUIRE_POCL();
  auto t0 = std::chrono::steady_clock::now();
  ToolRun r = run("check " + spec("hang") + kPocl + " --cases 2 --timeout 1" + kCasesOnly);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("timeout: the unit ran past its 1 s limit"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("past 2 s when rerun alone with the limit doubled"), std::string::npos)
      << "a timeout is confirmed before it is charged\n"
      << r.out;
  EXPECT_LT(s, 60.0);  // generous: the point is that it ends at all
}

TEST(E2E, BadSpecsExitTwoWithFileAndLine) {
  ToolRun malformed = run("check " + spec("malformed"));
  EXPECT_EQ(malformed.code, 2) << malformed.out;
  EXPECT_NE(malformed.out.find("malformed.yaml:4"), std::string::npos) << malformed.out;
  EXPECT_NE(malformed.out.find("not valid YAML"), std::string::npos) << malformed.out;

  ToolRun missing = run("check " + spec("missing_file"));
  EXPECT_EQ(missing.code, 2) << missing.out;
  EXPECT_NE(missing.out.find(
                "missing_file.yaml:3: source: kernel file '../kernels/no_such_file.cl' not found"),
            std::string::npos)
      << missing.out;

  ToolRun unknown = run("check " + spec("unknown_reference"));
  EXPECT_EQ(unknown.code, 2) << unknown.out;
  EXPECT_NE(unknown.out.find(
                "unknown_reference.yaml:4: reference: unknown reference 'no_such_reference'"),
            std::string::npos)
      << unknown.out;
  for (const ToolRun* r : {&malformed, &missing, &unknown}) {
    EXPECT_EQ(r->out.find("terminate called"), std::string::npos) << r->out;
    EXPECT_EQ(r->out.find("Aborted"), std::string::npos) << r->out;
  }
}

TEST(E2E, UsageErrorsExitTwoAndMissingDeviceExitsThree) {
  EXPECT_EQ(run("check --no-such-flag").code, 2);
  EXPECT_EQ(run("check " + spec("bug_gone") + " --seed banana").code, 2);
  EXPECT_EQ(run("check " + spec("bug_gone") + " --sizes N=").code, 2);
  ToolRun none = run("check " + spec("bug_gone") + " --device 'no device has this name'");
  EXPECT_EQ(none.code, 3) << none.out;
  EXPECT_NE(none.out.find("no usable device"), std::string::npos) << none.out;
}

TEST(E2E, DevicesTableListsPoclAndOclgrind) {
  ToolRun r = run("devices");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("NON-UNIFORM"), std::string::npos);
  if (r.out.find("Portable Computing Language") == std::string::npos)
    GTEST_SKIP() << "no PoCL here";
  // Oclgrind is registered by the tool itself whenever its package is installed.
  std::ifstream icd("/usr/lib/oclgrind/liboclgrind-rt-icd.so");
  if (icd) {
    EXPECT_NE(r.out.find("Oclgrind Simulator"), std::string::npos) << r.out;
  }
}

bool haveOclgrind() {
  return run("devices --device Oclgrind").code == 0;
}

const std::string kOclgrind = " --device Oclgrind";

// The kernel's verdict does not depend on the driver's answers: Oclgrind 21.10 accepts exclusive
// clCreateBuffer flags where the specification requires CL_INVALID_VALUE, which its committed
// baseline records. vadd_ok passes with or without that baseline; only regression mode compares
// the driver section, and fails on what no baseline records.
TEST(E2E, KernelVerdictsPassWhateverTheDriverAndRegressionModeComparesTheDriver) {
  if (!haveOclgrind()) GTEST_SKIP() << "no Oclgrind here";
  const std::string json = ::testing::TempDir() + "/drivers-known.json";
  ToolRun known = run("check " + spec("vadd_ok") + kOclgrind + " --cases 5 --json " + json);
  EXPECT_EQ(known.code, 0) << known.out;
  std::ifstream jf(json);
  const auto j = nlohmann::json::parse(jf);
  ASSERT_EQ(j.at("units").size(), 2u);
  EXPECT_EQ(j["units"][1]["family"], "launch");
  EXPECT_EQ(j["units"][1]["status"], "pass");
  EXPECT_EQ(j["units"][1]["cases_run"], 100);
  ASSERT_EQ(j.at("drivers").size(), 1u);
  const auto& d = j["drivers"][0];
  EXPECT_NE(d["baseline"].get<std::string>().find("oclgrind-simulator.json"), std::string::npos);
  bool flags = false;
  for (const auto& f : d["findings"])
    if (f["check"] == "buffer.invalid.read_write_and_read_only") {
      flags = true;
      EXPECT_EQ(f["verdict"], "deviates");
      EXPECT_EQ(f["got"], "CL_SUCCESS (0)");
      EXPECT_EQ(f["baseline"], "known");
    }
  EXPECT_TRUE(flags) << d.dump(1);

  // Against a folder with no baseline for Oclgrind: the same kernel verdicts, new driver
  // findings, and regression mode fails on them.
  const std::string empty = ::testing::TempDir() + "/no-driver-baselines";
  std::system(("mkdir -p " + empty).c_str());
  ToolRun fresh = run("check " + spec("vadd_ok") + kOclgrind + " --cases 5 --baseline " + empty);
  EXPECT_EQ(fresh.code, 1) << fresh.out;
  EXPECT_NE(fresh.out.find("2 units: 2 passed, 0 failed"), std::string::npos) << fresh.out;
  EXPECT_NE(fresh.out.find("NEW deviates buffer.invalid.read_write_and_read_only: got CL_SUCCESS"),
            std::string::npos)
      << fresh.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(fresh.out, m, std::regex("replay: clharness (semantics [^\n]+)")))
      << fresh.out;
  ToolRun replay = run(m[1].str());
  EXPECT_EQ(replay.code, 0) << replay.out;
  EXPECT_NE(replay.out.find("buffer.invalid.read_write_and_read_only"), std::string::npos);
  // Against the committed baselines: nothing new, and regression mode passes.
  ToolRun regression = run("check " + spec("vadd_ok") + kOclgrind + " --cases 5 --baseline");
  EXPECT_EQ(regression.code, 0) << regression.out;
  EXPECT_EQ(regression.out.find("NEW "), std::string::npos) << regression.out;
}

TEST(E2E, LaunchFamilyLeftOutOnRequestAndWhenReplayingACase) {
  REQUIRE_POCL();
  // No driver checks in these runs: their point is the launch family.
  ToolRun off = run("check " + spec("vadd_ok") + kPocl + " --cases 5" + kCasesOnly);
  EXPECT_EQ(off.code, 0) << off.out;
  EXPECT_EQ(off.out.find("[launch]"), std::string::npos) << off.out;
  ToolRun replay = run("check " + spec("vadd_ok") + kPocl + " --sizes N=7,L=4 --no-driver-checks");
  EXPECT_EQ(replay.code, 0) << replay.out;
  EXPECT_EQ(replay.out.find("[launch]"), std::string::npos) << replay.out;
  ToolRun on =
      run("check " + spec("vadd_ok") + kPocl + " --cases 5 --launch-shapes 20 --no-driver-checks");
  EXPECT_EQ(on.code, 0) << on.out;
  EXPECT_NE(on.out.find("vadd_ok [launch] on Portable Computing Language"), std::string::npos)
      << on.out;
  EXPECT_NE(on.out.find("pass (20 shapes"), std::string::npos) << on.out;
}

// A shape that does not end stops its process after --shape-timeout; where it had to run (a
// kernel that never ends), the family stops there instead of waiting out every shape.
TEST(E2E, LaunchShapeThatHangsIsStoppedAndEndsTheFamily) {
  REQUIRE_POCL();
  const std::string json = ::testing::TempDir() + "/launch-hang.json";
  auto t0 = std::chrono::steady_clock::now();
  ToolRun r =
      run("launch " + spec("hang") + kPocl + " --shapes 5 --shape-timeout 2 --json " + json);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("got timeout"), std::string::npos) << r.out;
  EXPECT_LT(s, 60.0);  // the whole family's limit is 900 s
  std::ifstream jf(json);
  const auto family = nlohmann::json::parse(jf).at("families").at(0);
  EXPECT_EQ(family["shapes"], 1);
  EXPECT_NE(family["notes"].dump().find("ran past 2 s, and past 4 s when rerun alone"),
            std::string::npos)
      << family["notes"];
  EXPECT_NE(family["notes"].dump().find("which must run, did not end"), std::string::npos)
      << family["notes"];
}

// The family's summary of `clharness launch SPEC --shapes N --json` on PoCL.
nlohmann::json launchFamily(const std::string& name, int shapes, ToolRun* out) {
  const std::string json = ::testing::TempDir() + "/launch-" + name + ".json";
  *out = run("launch " + spec(name) + kPocl + " --shapes " + std::to_string(shapes) + " --json " +
             json);
  std::ifstream jf(json);
  return nlohmann::json::parse(jf).at("families").at(0);
}

// A kernel that kills its process in every launch that must run: where the spec expects it, the
// family stops paying a new process for each repeat after 3 in a row, and says which shapes it did
// not launch; where it does not, every shape runs and each crash is the kernel's failure.
TEST(E2E, ExpectedCrashesStopRepeatingInALaunchFamily) {
  REQUIRE_POCL();
  constexpr int kShapes = 12;
  ToolRun unexpected;
  const auto all = launchFamily("crash_every_launch", kShapes, &unexpected);
  EXPECT_EQ(unexpected.code, 1) << unexpected.out;
  EXPECT_EQ(all["shapes"], kShapes) << all;
  EXPECT_GE(all["died"].get<int>(), 4) << all;  // enough crashes for the rule to act on
  EXPECT_EQ(all["notes"].dump().find("not launched"), std::string::npos) << all["notes"];

  ToolRun expected;
  const auto cut = launchFamily("crash_every_launch_expected", kShapes, &expected);
  EXPECT_EQ(cut["spec_expected"], 3) << cut;
  EXPECT_EQ(cut["died"], 3) << cut;
  std::string note;
  for (const auto& n : cut["notes"])
    if (n.get<std::string>().find("not launched") != std::string::npos) note = n.get<std::string>();
  ASSERT_NE(note.find("after 3 shapes in a row that must run died as the spec expects"),
            std::string::npos)
      << cut["notes"];
  // Every shape is either run or named as not launched.
  const std::regex shape("#\\d+");
  const auto named =
      std::distance(std::sregex_iterator(note.begin(), note.end(), shape), std::sregex_iterator());
  EXPECT_GE(named, 1) << note;
  EXPECT_EQ(cut["shapes"].get<int>() + named, kShapes) << cut;

  // In a check, the launch unit's verdict stays a pass and its message says what was not tried.
  const std::string json = ::testing::TempDir() + "/check-expected-crash.json";
  ToolRun check = run("check " + spec("crash_every_launch_expected") + kPocl +
                      " --cases 1 --launch-shapes 12 --no-driver-checks --json " + json);
  EXPECT_EQ(check.code, 0) << check.out;
  std::ifstream jf(json);
  for (const auto& u : nlohmann::json::parse(jf).at("units")) {
    if (u.value("family", "") != "launch") continue;
    EXPECT_EQ(u["status"], "pass") << u;
    EXPECT_NE(u["message"].get<std::string>().find("were not launched (#"), std::string::npos) << u;
  }
}

}  // namespace
