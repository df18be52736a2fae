// The HTML report's pieces (report/html.hpp) and the check report's page: hostile text escaped,
// the driver matrix's cells classed by verdict and mark (and a check a device did not report never
// drawn as conforming), the SVG plot's points placed in the order of their values, and a report
// without timings saying there is nothing to plot.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "report/formats.hpp"
#include "report/html.hpp"
#include "report/reporters.hpp"

namespace clh {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The numbers of an attribute in document order: attr="1.5" ...
std::vector<double> attributeValues(const std::string& svg, const std::string& attr) {
  std::vector<double> out;
  const std::regex re("<circle class=\"pt\"[^>]*? " + attr + "=\"([-0-9.e+]+)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator();
       ++it)
    out.push_back(std::stod((*it)[1]));
  return out;
}

const std::string kHostile =
    "</script><script>alert(1)</script><img src=x onerror=\"alert('x')\">&";

TEST(HtmlEscape, MarkupInUntrustedTextIsShownNotRun) {
  const std::string e = html::escape(kHostile);
  EXPECT_EQ(e.find('<'), std::string::npos) << e;
  EXPECT_EQ(e.find('>'), std::string::npos) << e;
  EXPECT_EQ(e.find('"'), std::string::npos) << e;
  EXPECT_EQ(e.find('\''), std::string::npos) << e;
  EXPECT_EQ(html::escape("a<b & \"c\" 'd'"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;");
  // Control characters (a build log's escape sequences) become U+FFFD; tab and newline stay.
  EXPECT_EQ(html::escape("\x1b[31m\t\n"), "\xEF\xBF\xBD[31m\t\n");
  // Multi-byte UTF-8 passes through.
  EXPECT_EQ(html::escape("µs ≤"), "µs ≤");
}

TEST(HtmlEscape, AnchorsOfDifferentTextsDiffer) {
  EXPECT_EQ(html::anchorId("sub-", "alice"), "sub-alice");
  EXPECT_NE(html::anchorId("sub-", "a/b"), html::anchorId("sub-", "a_b"));
  EXPECT_TRUE(std::regex_match(html::anchorId("x-", kHostile), std::regex("[A-Za-z0-9_-]+")));
}

// A report whose every string a kernel, a spec, a driver or a tool can set is hostile.
Report hostileReport(const std::string& source_file) {
  Report r;
  r.tool_version = "0.1.0";
  r.devices = {"dev" + kHostile};
  UnitResult u;
  u.spec = "spec" + kHostile;
  u.spec_file = "specs/x" + kHostile + ".yaml";
  u.device = r.devices[0];
  u.device_kind = "cpu";
  u.status = Status::fail;
  u.message = kHostile;
  Finding f;
  f.kind = FindingKind::race;
  f.summary = kHostile;
  f.kernel = "k" + kHostile;
  f.lines = {{source_file, 2, kHostile}};
  f.mismatches = {{"c" + kHostile, {1}, kHostile, kHostile, false}};
  f.work_items = {kHostile};
  f.raw = kHostile;
  u.failing = CaseOutcome{{{"N", 3}}, {f}, 0, 0, std::nullopt, std::nullopt, {}};
  u.replay = "clharness check " + kHostile;
  r.units = {u};
  DriverReport d;
  d.device = r.devices[0];
  d.findings = {{"check" + kHostile, kHostile, DriverVerdict::deviates, kHostile, kHostile,
                 kHostile, kHostile, BaselineMark::fresh, kHostile}};
  r.drivers = {d};
  return r;
}

TEST(HtmlReport, HostileTextNeverBecomesMarkup) {
  // The kernel source itself is read when the report is written: it is hostile too.
  const std::string src = ::testing::TempDir() + "/clh-hostile.cl";
  std::ofstream(src) << "kernel void k() {\n  " << kHostile << "\n}\n";
  for (const std::string& file : {src, std::string("/nonexistent/gone.cl")}) {
    std::ostringstream os;
    writeHtmlReport(os, hostileReport(file));
    const std::string page = os.str();
    EXPECT_EQ(count(page, "<script"), 1u) << "only the page's own script";
    EXPECT_EQ(count(page, "</script>"), 1u);
    EXPECT_EQ(count(page, "<img"), 0u);
    EXPECT_EQ(count(page, "onerror=\""), 0u);
    EXPECT_GT(count(page, "&lt;/script&gt;"), 8u) << "the hostile text is shown, escaped";
  }
}

TEST(HtmlMatrix, EachVerdictAndMarkHasItsClass) {
  const DriverVerdict verdicts[] = {DriverVerdict::conforms, DriverVerdict::deviates,
                                    DriverVerdict::crashed,  DriverVerdict::hung,
                                    DriverVerdict::observed, DriverVerdict::skipped};
  const BaselineMark marks[] = {
      BaselineMark::none, BaselineMark::known,   BaselineMark::fresh, BaselineMark::regression,
      BaselineMark::fix,  BaselineMark::missing, BaselineMark::flaky};
  DriverReport d;
  d.device = "gpu";
  for (auto v : verdicts)
    for (auto m : marks) {
      DriverFinding f;
      f.check = std::string(toString(v)) + "." + std::string(toString(m));
      f.verdict = v;
      f.mark = m;
      d.findings.push_back(f);
    }
  const html::DriverMatrix m = html::driverMatrix({d});
  ASSERT_EQ(m.devices.size(), 1u);
  ASSERT_EQ(m.checks.size(), d.findings.size());
  const std::string table = html::renderMatrix(m);
  for (size_t r = 0; r < m.checks.size(); ++r) {
    const auto& id = m.checks[r].first;
    const std::string verdict = id.substr(0, id.find('.'));
    const std::string mark = id.substr(id.find('.') + 1);
    const auto it = m.cells.find({r, 0});
    ASSERT_NE(it, m.cells.end()) << id;
    const std::string want =
        "cell v-" + verdict + (mark.empty() || mark == "known" ? "" : " m-" + mark);
    EXPECT_EQ(html::cellClass(&it->second), want) << id;
    EXPECT_NE(table.find("class=\"" + want + "\""), std::string::npos) << want;
    // A mark that changes something is written in the cell, not only coloured.
    if (!mark.empty() && mark != "known") {
      EXPECT_NE(table.find("<span class=\"mark\">" + mark + "</span>"), std::string::npos);
    }
  }
}

TEST(HtmlMatrix, ACheckADeviceDidNotReportIsNotRunNeverConforming) {
  DriverReport a, b, old;
  a.device = "A";
  a.conforming = 1;
  a.conforming_checks = {"read.blocking"};
  a.findings = {{"launch.zero_local", "", DriverVerdict::deviates, "CL_SUCCESS", "", "", "",
                 BaselineMark::none, ""}};
  b.device = "B";  // reported read.blocking only
  b.conforming = 1;
  b.conforming_checks = {"read.blocking"};
  old.device = "Old";  // a report written before conforming_checks: 5 conformed, unnamed
  old.conforming = 5;
  const html::DriverMatrix m = html::driverMatrix({a, b, old});
  ASSERT_EQ(m.checks.size(), 2u);
  size_t zero = 0, read = 0;
  for (size_t r = 0; r < m.checks.size(); ++r)
    (m.checks[r].first == "launch.zero_local" ? zero : read) = r;
  EXPECT_EQ(html::cellClass(&m.cells.at({zero, 0})), "cell v-deviates");
  EXPECT_EQ(m.cells.count({zero, 1}), 0u) << "B never ran launch.zero_local";
  EXPECT_EQ(html::cellClass(&m.cells.at({read, 1})), "cell v-conforms");
  EXPECT_EQ(m.cells.count({read, 2}), 0u) << "Old's conforming checks are unnamed";
  EXPECT_EQ(m.cells.count({zero, 2}), 0u);
  EXPECT_EQ(html::cellClass(nullptr), "cell absent");
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("Old"), std::string::npos);
  // Drawn: three absent cells, each saying so; conforming ones only where named.
  const std::string table = html::renderMatrix(m);
  EXPECT_EQ(count(table, "<td class=\"cell absent\">not run</td>"), 3u) << table;
  EXPECT_EQ(count(table, "class=\"cell v-conforms\""), 2u) << table;
}

// A merged report whose one device had no driver section: its column is there, every cell "not
// run", and a note says why.
TEST(HtmlReport, EveryDeviceOfTheReportHasAColumn) {
  Report r;
  r.devices = {"A", "B"};
  DriverReport a;
  a.device = "A";
  a.conforming = 1;
  a.conforming_checks = {"read.blocking"};
  r.drivers = {a};
  std::ostringstream os;
  writeHtmlReport(os, r);
  const std::string page = os.str();
  EXPECT_EQ(count(page, "<th class=\"dev\">"), 2u);
  EXPECT_EQ(count(page, "<td class=\"cell absent\">not run</td>"), 1u);
  EXPECT_NE(page.find("B: no driver section"), std::string::npos);
}

TEST(HtmlPlot, OnePointPerSampleInTheOrderOfTheValues) {
  html::Plot p{"t", "size", "GB/s", {}, true, html::Plot::LogY::never, "nothing"};
  html::PlotSeries s{"dev", {}, "", false};
  // Out of order, over several decades; one with x = 0 cannot be drawn on a log axis.
  const std::vector<std::pair<double, double>> in = {{1000, 3}, {10, 1}, {100000, 9},
                                                     {100, 2},  {0, 5},  {5000, 4}};
  s.points = in;
  p.series = {s};
  const std::string svg = html::renderPlot(p);
  ASSERT_EQ(svg.rfind("<svg", 0), 0u) << svg;
  const auto xs = attributeValues(svg, "data-x"), cx = attributeValues(svg, "cx");
  const auto ys = attributeValues(svg, "data-y"), cy = attributeValues(svg, "cy");
  ASSERT_EQ(xs.size(), in.size() - 1) << "every drawable point, and only those";
  ASSERT_EQ(cx.size(), xs.size());
  for (size_t i = 0; i < xs.size(); ++i)
    for (size_t j = 0; j < xs.size(); ++j) {
      if (xs[i] < xs[j]) {
        EXPECT_LT(cx[i], cx[j]) << "x grows to the right";
      }
      if (ys[i] < ys[j]) {
        EXPECT_GT(cy[i], cy[j]) << "y grows upward";
      }
    }
  // Every point lies inside the drawing.
  const double width = std::stod(svg.substr(svg.find(" width=\"") + 8));
  for (double x : cx) {
    EXPECT_GT(x, 0);
    EXPECT_LT(x, width);
  }
  EXPECT_NE(svg.find("size (log scale)"), std::string::npos) << "the x axis says what it is";
}

TEST(HtmlPlot, NoPointSaysNothingToPlotInsteadOfAnEmptyAxis) {
  html::Plot p{"t",
               "size",
               "GB/s",
               {{"dev", {}, "", false}},
               true,
               html::Plot::LogY::automatic,
               "nothing to plot: no timings"};
  const std::string out = html::renderPlot(p);
  EXPECT_EQ(out.find("<svg"), std::string::npos);
  EXPECT_NE(out.find("nothing to plot: no timings"), std::string::npos);

  Report r;
  r.devices = {"dev"};
  UnitResult u;
  u.spec = "s";
  u.spec_file = "s.yaml";
  u.device = "dev";
  u.cases_run = 3;  // run, but with no per-case samples (a report of an older clharness)
  r.units = {u};
  std::ostringstream page;
  writeHtmlReport(page, r);
  EXPECT_EQ(page.str().find("<circle class=\"pt\""), std::string::npos);
  EXPECT_NE(page.str().find("nothing to plot"), std::string::npos) << page.str();
}

TEST(HtmlReport, APageHasAPointPerSampleAndIsAFormatByName) {
  Report r;
  r.devices = {"dev"};
  UnitResult u;
  u.spec = "s";
  u.spec_file = "s.yaml";
  u.device = "dev";
  for (int i = 1; i <= 5; ++i)
    u.perf_samples.push_back({1000.0 * i, 1e4 * i, 3e4 * i, std::nullopt, 12000.0 * i});
  r.units = {u};
  std::ostringstream page;
  ASSERT_NE(findReportFormat("html"), nullptr);
  findReportFormat("html")->write(page, r);
  // GB/s against size (5), and the kernel and harness time of each case (10).
  EXPECT_EQ(count(page.str(), "<circle class=\"pt\""), 15u);
  EXPECT_NE(page.str().find("GB/s"), std::string::npos);
}

TEST(HtmlSource, TheInvolvedLinesAreMarkedInTheFileOrTheirOwnTextShown) {
  const std::filesystem::path dir = ::testing::TempDir() + "/clh-html-src";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "k.cl") << "a\nb\nc\nd\n";
  // Found against a folder (the spec's), both lines marked and the rest of the short file shown.
  const std::string found =
      html::renderSourceLines({{"k.cl", 2, "b"}, {"k.cl", 4, "d"}}, {dir.string()});
  EXPECT_EQ(count(found, "<tr class=\"hl\">"), 2u) << found;
  EXPECT_EQ(count(found, "<td class=\"ln\">"), 4u) << found;
  EXPECT_EQ(found.find("not found"), std::string::npos);
  // Not found here: the lines the finding carries, and that the source was not found.
  const std::string gone = html::renderSourceLines({{"gone.cl", 7, "x = y[i];"}}, {dir.string()});
  EXPECT_NE(gone.find("source not found"), std::string::npos) << gone;
  EXPECT_NE(gone.find("x = y[i];"), std::string::npos);
  EXPECT_EQ(count(gone, "<tr class=\"hl\">"), 1u);
  // A file changed since the run: said.
  const std::string changed = html::renderSourceLines({{"k.cl", 1, "not a"}}, {dir.string()});
  EXPECT_NE(changed.find("has changed since"), std::string::npos) << changed;
}

}  // namespace
}  // namespace clh
