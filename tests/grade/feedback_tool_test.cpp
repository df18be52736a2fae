// End-to-end tests of what the feedback tells beyond the verdict, on the devices here (PoCL and
// Oclgrind): distinct cases, and the statement that wrote a wrong element, found by replaying a
// real device's smallest failing case on the simulator.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "grade_tool_support.hpp"
#include "support/tool_run.hpp"

namespace {

using clh::test::ToolRun;
using namespace clh::test::grade;

std::filesystem::path freshFeedbackDir(const std::string& name) {
  return clh::test::grade::freshDir("grade_feedback_", name);
}

namespace fs = std::filesystem;
using json = nlohmann::json;

// `cases: N` is N distinct cases: a size the generator draws again is not counted, the search
// draws another (it used to repeat itself: 4 distinct of 8 on the simulator). Where the sizes
// allowed hold fewer, every one runs and the feedback says how many were asked for.
TEST(GradeFeedback, CasesAreDistinctUntilTheDomainHoldsNoMore) {
  REQUIRE_DEVICES();
  fs::path out = freshFeedbackDir("distinct");
  ToolRun r = tool("grade --assignment vadd " + kRoot +
                   "/kernels/assignments/vadd.cl --cases 12 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  json g = readJson(out / "vadd.json");
  ASSERT_EQ(g["devices"].size(), 3u);  // PoCL, the sanitizer on PoCL, Oclgrind
  for (const auto& d : g["devices"]) {
    if (d.value("sanitized", false)) continue;  // its own few sizes (docs/sanitizer.md)
    EXPECT_EQ(d["distinct_cases"], 12) << d.dump();
    EXPECT_EQ(d["cases_asked"], 12) << d.dump();
    EXPECT_EQ(d["unit"]["cases_run"], 12) << "each distinct case ran once";
  }
  EXPECT_NE(readText(out / "vadd.md").find(": completed, 12 distinct cases\n"), std::string::npos);

  fs::path small = freshFeedbackDir("distinct_small");
  ToolRun s = tool("grade --assignment " + kRoot + "/tests/grade/assignments/vadd_small.yaml " +
                   kRoot + "/kernels/assignments/vadd.cl --out " + small.string());
  ASSERT_EQ(s.code, 0) << s.out;
  json gs = readJson(small / "vadd.json");
  EXPECT_EQ(gs["points"], 100) << gs.dump(2);
  for (const auto& d : gs["devices"]) {
    EXPECT_EQ(d["distinct_cases"], 3) << "N in [1, 3]: three sizes, all run" << d.dump();
    if (d.value("sanitized", false)) continue;  // it asks for the sizes it chose
    EXPECT_EQ(d["cases_asked"], 10);
  }
  std::string md = readText(small / "vadd.md");
  EXPECT_NE(
      md.find("3 distinct cases (10 asked for: the sizes allowed on this device hold no more"),
      std::string::npos)
      << md;
}

// A results failure on a real device gets a source line: the simulator replays the smallest
// failing case with the wrong elements watched, and names the statement that wrote one, or says
// that none did.
TEST(GradeFeedback, AWrongElementOnARealDeviceGetsTheStatementThatWroteIt) {
  REQUIRE_DEVICES();
  fs::path out = freshFeedbackDir("trace");
  ToolRun r = tool("grade --assignment mmul " + kSubmissions +
                   "/mmul/off_by_one.cl --cases 6 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  std::string md = readText(out / "off_by_one.md");
  EXPECT_NE(md.find("Replayed on the simulator, where each store is watched: C[0, 0] was last "
                    "written by line 8 (`C[i * N + j] = tmp;`)"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("  - line 8 of `off_by_one.cl`: `C[i * N + j] = tmp;`"), std::string::npos)
      << md;
  json g = readJson(out / "off_by_one.json");
  bool traced = false;
  for (const auto& d : g["devices"])
    if (d.contains("trace"))
      traced = d["simulator"].get<bool>() && d["trace"]["elements"][0]["stores"] == 1 &&
               d["trace"]["elements"][0]["on_simulator"] == "wrong";
  EXPECT_TRUE(traced) << g["devices"].dump(2);

  fs::path out2 = freshFeedbackDir("trace_unwritten");
  ToolRun u = tool("grade --assignment vadd " + kSubmissions +
                   "/vadd/swapped_params.cl --cases 6 --out " + out2.string());
  ASSERT_EQ(u.code, 0) << u.out;
  std::string unwritten = readText(out2 / "swapped_params.md");
  EXPECT_NE(unwritten.find("where each store is watched: no statement of your kernel wrote b[0]"),
            std::string::npos)
      << unwritten;
}

}  // namespace
