// Golden tests of the console, JSON and JUnit reporters over one hand-built Report holding every
// kind of outcome. The files under golden/ were written by hand from the formats' rules; a
// difference is a change of the report format (update the golden file deliberately) or a bug.
#include "report/reporters.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "core_test_support.hpp"
#include "report/formats.hpp"

namespace clh {
namespace {

using nlohmann::json;

std::string golden(const std::string& name) {
  return test::readFile(test::coreTestDir() + "/golden/" + name);
}

// pass, fail (mismatches, one unwritten, replay), expected failure (race), unexpected pass,
// tool error (a build log with XML-special and control characters); spec names out of order.
Report sampleReport() {
  Report r;
  r.tool_version = "0.1.0";
  r.seed = 42;
  r.devices = {"pocl: cpu", "oclgrind"};

  UnitResult pass;
  pass.spec = "handson_vadd";
  pass.spec_file = "specs/handson/vadd.yaml";
  pass.device = "pocl: cpu";
  pass.device_kind = "cpu";
  pass.status = Status::pass;
  pass.cases_run = 100;
  pass.seed = 42;
  pass.perf = {100, 2e6, 4e6, 0};  // 2 GFLOP/s
  pass.seconds = 0.5;

  UnitResult fail;
  fail.spec = "handson_mmul";
  fail.spec_file = "specs/handson/mmul.yaml";
  fail.device = "pocl: cpu";
  fail.device_kind = "cpu";
  fail.status = Status::fail;
  fail.cases_run = 12;
  fail.seed = 42;
  Finding wrong;
  wrong.kind = FindingKind::wrong_result;
  wrong.summary = "C: 3 of 9 elements differ";
  wrong.kernel = "mmul";
  wrong.mismatches = {{"C", {0, 1}, "1.5", "2.5", false}, {"C", {2, 2}, "nan", "3", true}};
  wrong.mismatch_count = 3;
  fail.failing = CaseOutcome{{{"N", 3}, {"TS", 2}}, {wrong}, 0, 0, std::nullopt, std::nullopt, {}};
  fail.replay =
      "clharness check specs/handson/mmul.yaml --device 'pocl: cpu' --seed 42 --sizes N=3,TS=2";
  fail.perf = {12, 0, 0, 0};
  fail.seconds = 1.25;

  UnitResult xfail;
  xfail.spec = "handson_mmul_as_published";
  xfail.spec_file = "specs/handson/mmul_as_published.yaml";
  xfail.device = "oclgrind";
  xfail.device_kind = "simulator";
  xfail.status = Status::expected_failure;
  xfail.cases_run = 3;
  xfail.seed = 42;
  Finding race;
  race.kind = FindingKind::race;
  race.summary = "read-write race on local memory";
  race.address_space = "local";
  race.lines = {{"kernels/handson/mmul_as_published.cl", 14, "Bwrk[k] = B[k*N + j];"}};
  race.work_items = {"global(1,0,0) local(1,0,0) group(0,0,0)",
                     "global(0,0,0) local(0,0,0) group(0,0,0)"};
  xfail.failing = CaseOutcome{{{"N", 2}}, {race}, 0, 0, std::nullopt, std::nullopt, {}};
  xfail.replay =
      "clharness check specs/handson/mmul_as_published.yaml --device oclgrind --seed 42 --sizes "
      "N=2";
  xfail.message = "as expected: the published kernel forgets a barrier";
  xfail.expected = {FindingKind::race};
  xfail.perf = {3, 500, 0, 2048};  // 4.096 GB/s
  xfail.seconds = 2;

  UnitResult xpass;
  xpass.spec = "intermediate_reduce_as_published";  // longer than the SPEC column
  xpass.spec_file = "specs/intermediate/reduce_as_published.yaml";
  xpass.device = "oclgrind";
  xpass.device_kind = "simulator";
  xpass.status = Status::unexpected_pass;
  xpass.cases_run = 10;
  xpass.seed = 42;
  xpass.message =
      "expected race (missing barrier) but 10 cases showed none: was the published bug fixed?";
  xpass.expected = {FindingKind::race};
  xpass.perf = {10, 0, 0, 0};
  xpass.seconds = 3.5;

  UnitResult tool;
  tool.spec = "perroni_transpose";
  tool.spec_file = "specs/perroni/transpose.yaml";
  tool.device = "oclgrind";
  tool.device_kind = "simulator";
  tool.status = Status::tool_error;
  tool.cases_run = 1;
  tool.seed = 42;
  Finding crash;
  crash.kind = FindingKind::tool_error;
  crash.summary = "oclgrind exited with status 1 while building";
  crash.raw =
      "<kernel>:3:5: error: use of undeclared identifier 'tile'\n"
      "  float x = tile[lid] & mask;\n"
      "    ^ \"here\"\n"
      "\x1b[0m1 error generated.\n";
  tool.failing = CaseOutcome{{}, {crash}, 0, 0, std::nullopt, std::nullopt, {}};
  tool.replay = "clharness check specs/perroni/transpose.yaml --device oclgrind --seed 42";
  tool.message = "the tool failed on this kernel (not the kernel's fault)";
  tool.seconds = 0.25;

  r.units = {pass, fail, xfail, xpass, tool};
  return r;
}

// BUG (harness/report/console.cpp, writeConsoleReport): each details block ends with a
// blank line and the totals line starts with another, so a report with failures has two blank
// lines before the totals where a report without has one.
TEST(ConsoleReporter, MatchesGolden) {
  std::ostringstream os;
  writeConsoleReport(os, sampleReport());
  EXPECT_EQ(os.str(), golden("report.txt"));
}

// The golden comparison above with only that known difference forgiven, so that every other
// change of the console format is still caught while it is disabled.
TEST(ConsoleReporter, MatchesGoldenApartFromTheBlankLineBeforeTotals) {
  std::ostringstream os;
  writeConsoleReport(os, sampleReport());
  std::string out = os.str();
  const std::string doubled = "\n\n\n5 units:";
  if (auto at = out.find(doubled); at != std::string::npos) out.erase(at, 1);
  EXPECT_EQ(out, golden("report.txt"));
}

TEST(ConsoleReporter, AllPassingReportHasNoDetails) {
  Report r = sampleReport();
  r.units.resize(1);
  std::ostringstream os;
  writeConsoleReport(os, r);
  EXPECT_EQ(os.str(), golden("report_pass.txt"));
}

TEST(ConsoleReporter, DescribeMismatch) {
  EXPECT_EQ(describeMismatch({"c", {3, 1}, "0.5", "0.7", false}), "c[3, 1]: got 0.5, want 0.7");
  EXPECT_EQ(describeMismatch({"c", {4}, "nan", "0.7", true}),
            "c[4]: got (poison), want 0.7 (never written)");
}

TEST(ConsoleReporter, LongBuildLogsAreCut) {
  UnitResult u = sampleReport().units[4];
  u.failing->findings[0].raw = std::string(5000, 'x');
  std::ostringstream os;
  writeUnitDetails(os, u);
  const std::string out = os.str();
  EXPECT_NE(out.find("    " + std::string(2000, 'x') + "\n    ...(cut)\n"), std::string::npos);
  EXPECT_EQ(out.find(std::string(2001, 'x')), std::string::npos);
}

TEST(JsonReporter, MatchesGolden) {
  std::ostringstream os;
  writeJsonReport(os, sampleReport());
  json got = json::parse(os.str());
  json want = json::parse(golden("report.json"));
  EXPECT_EQ(got, want) << "got:\n" << got.dump(2);
}

TEST(JsonReporter, Fields) {
  std::ostringstream os;
  writeJsonReport(os, sampleReport());
  json j = json::parse(os.str());
  EXPECT_EQ(j["schema"], "clharness-report/1");
  EXPECT_EQ(j["tool_version"], "0.1.0");
  EXPECT_EQ(j["seed"], 42);
  EXPECT_EQ(j["summary"], json({{"pass", 1},
                                {"fail", 1},
                                {"expected_failure", 1},
                                {"unexpected_pass", 1},
                                {"tool_error", 1}}));
  ASSERT_EQ(j["units"].size(), 5u);
  const json& fail = j["units"][1];
  EXPECT_EQ(fail["status"], "fail");
  EXPECT_EQ(fail["failing_case"]["sizes"]["TS"], 2);
  EXPECT_EQ(fail["failing_case"]["findings"][0]["mismatches"][1]["unwritten"], true);
  EXPECT_EQ(
      fail["replay"],
      "clharness check specs/handson/mmul.yaml --device 'pocl: cpu' --seed 42 --sizes N=3,TS=2");
  EXPECT_EQ(j["units"][0]["perf"]["gflops"], 2.0);
  EXPECT_EQ(j["units"][2]["expected"], json::array({"race"}));
  EXPECT_EQ(j["units"][4]["failing_case"]["findings"][0]["raw"],
            sampleReport().units[4].failing->findings[0].raw);  // the log, byte for byte
}

TEST(JUnitReporter, MatchesGolden) {
  std::ostringstream os;
  writeJUnitReport(os, sampleReport());
  EXPECT_EQ(os.str(), golden("report.xml"));
}

TEST(JUnitReporter, SkippedUnitsAreCounted) {
  Report r;
  UnitResult u;
  u.spec = "needs_fp64";
  u.device = "gpu";
  u.status = Status::skipped;
  u.message = "the device has no double support";
  r.units = {u};
  std::ostringstream os;
  writeJUnitReport(os, r);
  EXPECT_EQ(os.str(), golden("report_skipped.xml"));
}

// A unit of another family than the cases is named "spec [family]" wherever a person reads it,
// so the launch family's result of a spec never reads as the result of its cases.
TEST(Reporters, NameTheLaunchFamily) {
  Report r;
  UnitResult cases;
  cases.spec = "handson_vadd";
  cases.device = "pocl: cpu";
  UnitResult shapes = cases;
  shapes.family = "launch";
  shapes.status = Status::fail;
  shapes.cases_run = 100;
  r.units = {cases, shapes};
  std::ostringstream console, junit, json;
  writeConsoleReport(console, r);
  writeJUnitReport(junit, r);
  writeJsonReport(json, r);
  EXPECT_NE(console.str().find("FAIL handson_vadd [launch] on pocl: cpu"), std::string::npos)
      << console.str();
  EXPECT_NE(junit.str().find("name=\"pocl: cpu [launch]\""), std::string::npos) << junit.str();
  EXPECT_NE(junit.str().find("name=\"pocl: cpu\""), std::string::npos) << junit.str();
  const auto units = nlohmann::json::parse(json.str()).at("units");
  EXPECT_EQ(units.at(0).at("family"), "cases");
  EXPECT_EQ(units.at(1).at("family"), "launch");
}

// The recipe "add an output format" of docs/architecture.md, done once: a format of the test's own
// is registered, named by --report's parser, and written whole by the same writer as the built-in
// ones; an unknown name is refused with the list of known ones.
TEST(ReportFormats, AFormatOfAProgramsOwnIsWrittenByName) {
  registerReportFormat({"unit-lines", "one line per unit", [](std::ostream& os, const Report& r) {
                          for (const auto& u : r.units)
                            os << u.spec << " " << toString(u.status) << "\n";
                        }});
  const std::string path = ::testing::TempDir() + "/clh-report-format-test.txt";
  const ReportOutput out = parseReportOutput("unit-lines=" + path);
  EXPECT_EQ(out.format, "unit-lines");
  EXPECT_EQ(out.path, path);
  ASSERT_TRUE(writeReportOutputs(sampleReport(), {out}));
  const std::string text = test::readFile(path);
  EXPECT_NE(text.find("handson_vadd pass\n"), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'),
            static_cast<long>(sampleReport().units.size()));
  try {
    parseReportOutput("nosuch=" + path);
    FAIL() << "an unknown format was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unit-lines"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("junit"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parseReportOutput("json="), std::invalid_argument);
}

// Every format marks an interrupted run's report: JSON with "incomplete", JUnit with an error.
TEST(ReportFormats, AnInterruptedRunIsMarkedIncompleteInEveryFormat) {
  Report r = sampleReport();
  r.interrupted_by = "SIGINT";
  r.units_planned = 9;
  std::ostringstream js, xml;
  writeJsonReport(js, r);
  const json j = json::parse(js.str());
  EXPECT_EQ(j.value("incomplete", false), true);
  EXPECT_EQ(j.value("interrupted_by", ""), "SIGINT");
  EXPECT_EQ(j.value("units_planned", 0), 9);
  writeJUnitReport(xml, r);
  EXPECT_NE(xml.str().find("incomplete=\"true\""), std::string::npos);
  EXPECT_NE(xml.str().find("interrupted by SIGINT"), std::string::npos);
  std::ostringstream plain;
  writeJsonReport(plain, sampleReport());
  EXPECT_FALSE(json::parse(plain.str()).contains("incomplete"));
}

}  // namespace
}  // namespace clh
