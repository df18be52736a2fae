// `--html FILE` looked at as a user would (issue 17): the page of a real run of `check`, `grade`
// and `semantics` rendered in headless Chromium, which must load it without a script error and
// show the driver matrix and a plot with points. Skipped, saying so, where Chromium is not
// installed (Debian's package `chromium`, ci/install-deps.sh) or the devices are missing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "support/scratch.hpp"
#include "support/tool_run.hpp"

namespace fs = std::filesystem;
using clh::test::runTool;

namespace {

using clh::test::slurp;

const std::string kRoot = CLHARNESS_SOURCE_ROOT;
const std::string kDevices = " --device 'Portable|Oclgrind'";

std::string chromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    const std::string probe = std::string("command -v ") + name + " >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return name;
  }
  return "";
}

fs::path freshDir(const std::string& name) {
  const fs::path d =
      fs::path(::testing::TempDir()) / ("clh-html-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The DOM Chromium built from the page once it loaded (its scripts run), or "" when it failed.
// As root Chromium needs --no-sandbox; a profile folder of its own keeps runs apart.
std::string renderedDom(const fs::path& page, const fs::path& dir) {
  const fs::path dom = dir / "dom.html";
  const std::string cmd = chromium() +
                          " --headless --no-sandbox --disable-gpu --no-first-run "
                          "--user-data-dir='" +
                          (dir / "profile").string() + "' --dump-dom 'file://" +
                          fs::absolute(page).string() + "' > '" + dom.string() + "' 2> '" +
                          (dir / "chromium.log").string() + "'";
  if (std::system(cmd.c_str()) != 0) return "";
  return slurp(dom);
}

// What every page must show once rendered: it loaded (the page's script marks <html>
// data-ready), no script error was recorded, and the driver matrix is there.
void expectLoadedCleanly(const std::string& dom, const fs::path& dir) {
  ASSERT_FALSE(dom.empty()) << "chromium failed:\n" << slurp(dir / "chromium.log");
  std::smatch html;
  ASSERT_TRUE(std::regex_search(dom, html, std::regex("<html[^>]*>"))) << dom.substr(0, 500);
  EXPECT_NE(html.str().find("data-ready=\"1\""), std::string::npos) << html.str();
  EXPECT_NE(html.str().find("data-errors=\"\""), std::string::npos)
      << "script errors: " << html.str();
}

#define REQUIRE_CHROMIUM() \
  if (chromium().empty()) GTEST_SKIP() << "chromium is not installed (apt-get install chromium)"

TEST(HtmlRender, ACheckRunsPageLoadsAndShowsTheMatrixAndAPlot) {
  REQUIRE_CHROMIUM();
  const fs::path dir = freshDir("check");
  // A spec that passes and an as-published one whose race or wrong result is expected.
  const auto run = runTool("check " + kRoot + "/specs/handson/vadd.yaml " + kRoot +
                           "/specs/handson/mmul_async_as_published.yaml" + kDevices +
                           " --cases 6 --launch-shapes 3 --html " + (dir / "report.html").string() +
                           " --json " + (dir / "report.json").string());
  if (run.code == 3) GTEST_SKIP() << "neither PoCL nor Oclgrind here:\n" << run.out;
  ASSERT_EQ(run.code, 0) << run.out;
  const std::string page = slurp(dir / "report.html");
  const std::string dom = renderedDom(dir / "report.html", dir);
  expectLoadedCleanly(dom, dir);
  EXPECT_NE(dom.find("<table class=\"matrix\">"), std::string::npos);
  EXPECT_GT(count(dom, "class=\"cell v-"), 0u) << "the matrix has cells with verdicts";
  // A column per device of the run.
  const auto report = slurp(dir / "report.json");
  const size_t devices = count(report, "\"driver_version\"");
  EXPECT_EQ(count(dom, "<th class=\"dev\">"), devices);
  EXPECT_GT(count(dom, "<circle class=\"pt\""), 0u) << "no plot has a point";
  EXPECT_NE(dom.find("elements in the case's buffers"), std::string::npos) << "x axis unnamed";
  EXPECT_NE(dom.find("handson_mmul_async_as_published"), std::string::npos);
  EXPECT_NE(dom.find("badge s-expected_failure"), std::string::npos);
  EXPECT_NE(dom.find("<pre class=\"cmd\">"), std::string::npos) << "a replay command";
  // Nothing outside the file: no URL to fetch.
  EXPECT_EQ(std::regex_search(page, std::regex("(src|href)=\"(https?:)?//")), false);

  // The merged report of the run's JSON: the same matrix, a column per device.
  const auto merged = runTool("merge " + (dir / "report.json").string() + " --html " +
                              (dir / "merged.html").string());
  ASSERT_EQ(merged.code, 0) << merged.out;
  const std::string mdom = renderedDom(dir / "merged.html", dir);
  expectLoadedCleanly(mdom, dir);
  EXPECT_EQ(count(mdom, "<th class=\"dev\">"), devices);
  EXPECT_GT(count(mdom, "<circle class=\"pt\""), 0u);
  fs::remove_all(dir);
}

TEST(HtmlRender, AGradePageHasTheOverviewAndASectionPerSubmission) {
  REQUIRE_CHROMIUM();
  const fs::path dir = freshDir("grade");
  // Its point is the page: Oclgrind alone grades both submissions (PoCL's processes, and the
  // sanitizer's, would cost ten times as much and change nothing the page is asserted for).
  const auto run =
      runTool("grade --assignment " + kRoot + "/tests/grade/assignments/vadd_small.yaml " + kRoot +
              "/kernels/assignments/vadd.cl " + kRoot +
              "/tests/grade/submissions/vadd/missing_bounds_check.cl --device Oclgrind --out " +
              (dir / "out").string() + " --html " + (dir / "grade.html").string());
  if (run.code == 3) GTEST_SKIP() << "the devices to grade on are missing here:\n" << run.out;
  ASSERT_EQ(run.code, 0) << run.out;
  const std::string dom = renderedDom(dir / "grade.html", dir);
  expectLoadedCleanly(dom, dir);
  EXPECT_NE(dom.find("id=\"overview\""), std::string::npos);
  EXPECT_GT(count(dom, "<rect class=\"bar\""), 0u) << "the histogram of totals";
  EXPECT_NE(dom.find("id=\"sub-vadd\""), std::string::npos);
  EXPECT_NE(dom.find("id=\"sub-missing_bounds_check\""), std::string::npos);
  EXPECT_NE(dom.find("href=\"#sub-missing_bounds_check\""), std::string::npos);
  fs::remove_all(dir);
}

TEST(HtmlRender, TheSemanticsPageShowsItsMatrix) {
  REQUIRE_CHROMIUM();
  const fs::path dir = freshDir("semantics");
  const auto run = runTool("semantics --device pocl --html " + (dir / "semantics.html").string());
  if (run.code == 3) GTEST_SKIP() << "no PoCL here";
  ASSERT_EQ(run.code, 0) << run.out;
  const std::string dom = renderedDom(dir / "semantics.html", dir);
  expectLoadedCleanly(dom, dir);
  EXPECT_NE(dom.find("<table class=\"matrix\">"), std::string::npos);
  EXPECT_GT(count(dom, "class=\"cell v-conforms\""), 0u) << "PoCL conforms to some check";
  EXPECT_EQ(count(dom, "<th class=\"dev\">"), 1u);
  fs::remove_all(dir);
}

}  // namespace
