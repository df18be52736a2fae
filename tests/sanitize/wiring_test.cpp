// The sanitizer wired into `check` and `grade` on PoCL: a spec's `[sanitize]` row finds a read
// past the end that only its largest size makes (kind, line, sizes), a correct spec's row is clean
// and says the sizes it ran, and `grade` with PoCL alone selected (no simulator) judges the
// "clean" item: assessed and passed for the reference solution, lost for a racy submission.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/tool_run.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kRepoRoot = CLHARNESS_SOURCE_ROOT;
const std::string kPoclOnly = "'^Portable Computing Language'";

fs::path wiringDir(const std::string& name) {
  const fs::path d = fs::path(::testing::TempDir()) / ("sanitize_wiring_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

json readJsonFile(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in, nullptr, false);
}

// `check SPEC --sanitize` on PoCL alone (no launch shapes, driver checks or replays): the report.
json checkSanitized(const std::string& spec, int expectedCode, std::string* console = nullptr) {
  const fs::path dir = wiringDir(spec);
  const clh::test::ToolRun r = clh::test::runTool(
      "check " + kRepoRoot + "/tests/sanitize/specs/" + spec + ".yaml --device " + kPoclOnly +
      " --sanitize --cases 2 --launch-shapes 0 --no-driver-checks --replay-budget 0 --json " +
      (dir / "r.json").string());
  EXPECT_EQ(r.code, expectedCode) << r.out;
  if (console) *console = r.out;
  return readJsonFile(dir / "r.json");
}

json unitOf(const json& report, const std::string& family) {
  for (const auto& u : report["units"])
    if (u["family"] == family) return u;
  return json();
}

TEST(PoclWiring, CheckSanitizedRowFindsAReadOnlyTheLargestSizeMakes) {
  std::string console;
  const json report = checkSanitized("vadd_past_end", 1, &console);
  ASSERT_TRUE(report.is_object()) << console;
  // The plain cases do not see the read: the value is never used, and guard zones see writes.
  EXPECT_EQ(unitOf(report, "cases")["status"], "pass") << report.dump(2);
  const json san = unitOf(report, "sanitize");
  ASSERT_TRUE(san.is_object()) << report.dump(2);
  EXPECT_EQ(san["status"], "fail") << san.dump(2);
  EXPECT_NE(console.find("sanitize_vadd_past_end [sanitize]"), std::string::npos) << console;
  ASSERT_TRUE(san["failing_case"].is_object()) << san.dump(2);
  EXPECT_EQ(san["failing_case"]["sizes"]["N"], 128) << san.dump(2);
  // Found by the first case, the largest: random draws reach N = 128 only by chance.
  EXPECT_EQ(san["cases_run"], 1) << san.dump(2);
  const json& f = san["failing_case"]["findings"].at(0);
  EXPECT_EQ(f["kind"], "out_of_bounds") << f.dump(2);
  EXPECT_NE(f["summary"].get<std::string>().find("a[128]"), std::string::npos) << f.dump(2);
  ASSERT_FALSE(f["lines"].empty()) << f.dump(2);
  EXPECT_EQ(f["lines"][0]["line"], 10) << f.dump(2);  // ahead = a[i + 1];
  EXPECT_TRUE(f["lines"][0]["file"].get<std::string>().ends_with("vadd_past_end.cl"));
  EXPECT_NE(san["replay"].get<std::string>().find("--sanitize"), std::string::npos);
}

TEST(PoclWiring, CheckSanitizedRowOfACorrectSpecIsCleanAndSaysItsSizes) {
  const json report = checkSanitized("vadd", 0);
  ASSERT_TRUE(report.is_object());
  const json san = unitOf(report, "sanitize");
  ASSERT_TRUE(san.is_object()) << report.dump(2);
  EXPECT_EQ(san["status"], "pass") << san.dump(2);
  EXPECT_GE(san["cases_run"].get<int>(), 2) << san.dump(2);
  ASSERT_FALSE(san["observations"].empty()) << san.dump(2);
  const std::string looked = san["observations"][0];
  // Which device looked, and at which sizes: the largest of the range among them.
  EXPECT_NE(looked.find("sanitized on Portable Computing Language"), std::string::npos) << looked;
  EXPECT_NE(looked.find("N=128"), std::string::npos) << looked;
}

// PoCL alone selected: no simulator, and the "clean" item is judged by the sanitizer.
TEST(PoclWiring, GradeWithoutTheSimulatorJudgesCleanWithTheSanitizer) {
  const fs::path out = wiringDir("grade");
  const clh::test::ToolRun r =
      clh::test::runTool("grade --assignment pi " + kRepoRoot + "/kernels/assignments/pi.cl " +
                         kRepoRoot + "/tests/grade/submissions/pi/missing_barrier.cl --device " +
                         kPoclOnly + " --cases 3 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  auto clean = [](const json& g) {
    for (const auto& i : g["items"])
      if (i["check"] == "simulator") return i;
    return json();
  };
  const json ref = readJsonFile(out / "pi.json");
  const json refClean = clean(ref);
  EXPECT_TRUE(refClean["assessed"].get<bool>()) << refClean.dump(2);
  EXPECT_EQ(refClean["result"], "pass") << refClean.dump(2);
  EXPECT_FALSE(ref.contains("unassessed")) << ref.dump(2);
  bool sanitized = false;
  for (const auto& d : ref["devices"]) sanitized = sanitized || d.value("sanitized", false);
  EXPECT_TRUE(sanitized) << ref["devices"].dump(2);
  const json racy = clean(readJsonFile(out / "missing_barrier.json"));
  EXPECT_EQ(racy["result"], "fail") << racy.dump(2);
  EXPECT_EQ(racy["kinds"], json::array({"race"})) << racy.dump(2);
}

}  // namespace
