// A kernel's own crash in a sanitized unit on PoCL: a private store to an address nothing owns
// kills the instrumented process and the plain one alike, so the `[sanitize]` row charges the crash
// to the kernel, naming the plain run's, never to the sanitizer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/tool_run.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

TEST(PoclSanitizedCrash, AKernelThatCrashesPlainTooIsChargedTheCrash) {
  const fs::path dir = fs::path(::testing::TempDir()) / "sanitize_crash";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const clh::test::ToolRun r = clh::test::runTool(
      "check " + std::string(CLHARNESS_SOURCE_ROOT) +
      "/tests/sanitize/specs/private_wild_store.yaml --device '^Portable Computing Language' "
      "--sanitize --cases 1 --launch-shapes 0 --no-driver-checks --replay-budget 0 --json " +
      (dir / "r.json").string());
  EXPECT_EQ(r.code, 1) << r.out;
  std::ifstream in(dir / "r.json");
  const json report = json::parse(in, nullptr, false);
  ASSERT_TRUE(report.is_object()) << r.out;
  json san;
  for (const auto& u : report["units"])
    if (u["family"] == "sanitize") san = u;
  ASSERT_TRUE(san.is_object()) << report.dump(2);
  EXPECT_EQ(san["status"], "fail") << san.dump(2);
  const json& f = san["failing_case"]["findings"][0];
  EXPECT_EQ(f["kind"], "crash") << san.dump(2);
  const std::string summary = f["summary"];
  EXPECT_NE(summary.find("the same case run plain"), std::string::npos) << summary;
  EXPECT_NE(summary.find("the kernel's own crash"), std::string::npos) << summary;
}

}  // namespace
