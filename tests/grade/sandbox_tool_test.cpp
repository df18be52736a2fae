// `clharness grade --sandbox` end to end (PoCL and Oclgrind): a sandboxed batch grades the
// reference solution in full (both drivers work inside), and a machine that refuses the sandbox
// (CLHARNESS_SANDBOX_REFUSED, the tests' stand-in) grades with `limits only` said in the summary,
// the JSON and the Gradescope file, or is refused with exit 3 under `--sandbox required`.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "grade/grade_tool_support.hpp"

namespace fs = std::filesystem;
using namespace clh::test::grade;
using clh::test::runToolWithEnv;
using nlohmann::json;

namespace {

const std::string kRefused = "CLHARNESS_SANDBOX_REFUSED='unshare: Operation not permitted'";

// The reference solution as a submission: full points wherever its grading processes work.
fs::path referenceSubmission(const fs::path& dir) {
  fs::copy_file(kRoot + "/kernels/assignments/vadd.cl", dir / "alice.cl",
                fs::copy_options::overwrite_existing);
  return dir / "alice.cl";
}

}  // namespace

TEST(GradeTool, SandboxedBatchGradesInFullAndSaysSo) {
  REQUIRE_DEVICES();
  const fs::path dir = freshDir("sandbox-", "on");
  const fs::path sub = referenceSubmission(dir);
  const fs::path out = dir / "out";
  const ToolRun r = tool("grade --assignment vadd " + sub.string() +
                         " --sandbox required --format gradescope --cases 5 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const json g = readJson(out / "alice.json");
  EXPECT_EQ(g["points"], g["max_points"]) << r.out;
  EXPECT_EQ(g["sandbox"], "namespaces");
  // PoCL's process, the sanitizer's on PoCL (its rewrite made outside) and Oclgrind's, all inside
  EXPECT_EQ(g["devices"].size(), 3u);
  EXPECT_EQ(readJson(out / "results.json")["extra_data"]["sandbox"], "namespaces");
  EXPECT_NE(readText(out / "summary.txt").find("sandbox: namespaces"), std::string::npos);
}

TEST(GradeTool, SandboxRefusedGradesWithLimitsOnlySaidEverywhere) {
  REQUIRE_DEVICES();
  const fs::path dir = freshDir("sandbox-", "limits");
  const fs::path sub = referenceSubmission(dir);
  const fs::path out = dir / "out";
  // Its point is what the files say: Oclgrind's process alone.
  const ToolRun r = runToolWithEnv(kRefused, "grade --assignment vadd " + sub.string() +
                                                 " --format gradescope --device Oclgrind --cases 5 "
                                                 "--out " +
                                                 out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("sandbox: limits only"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unshare: Operation not permitted"), std::string::npos) << r.out;
  EXPECT_EQ(readJson(out / "alice.json")["sandbox"], "limits only");
  EXPECT_EQ(readJson(out / "results.json")["extra_data"]["sandbox"], "limits only");
  EXPECT_NE(readText(out / "summary.txt").find("sandbox: limits only"), std::string::npos);
}

TEST(GradeTool, SandboxRequiredRefusesToGradeWhereItCannotBeMade) {
  const fs::path dir = freshDir("sandbox-", "required");
  const fs::path sub = referenceSubmission(dir);
  const fs::path out = dir / "out";
  const ToolRun r = runToolWithEnv(kRefused, "grade --assignment vadd " + sub.string() +
                                                 " --sandbox required --out " + out.string());
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("--sandbox required"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unshare: Operation not permitted"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out / "grades.csv"));
}
