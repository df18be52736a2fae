// End-to-end test of what the feedback tells beyond the verdict, on the devices here (PoCL and
// Oclgrind): a domain that holds fewer sizes than the cases asked for.
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

// `cases: N` is N distinct cases (GradeTool.ReferenceSolutions... checks it at the rubric's
// counts), until the sizes allowed hold fewer: then every one runs and the feedback says how many
// were asked for. (The statement that wrote a wrong element is read from the batches of
// tool_test.cpp.)
TEST(GradeFeedback, CasesAreDistinctUntilTheDomainHoldsNoMore) {
  REQUIRE_DEVICES();
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

}  // namespace
