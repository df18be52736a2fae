// JUnit XML, as CI systems read it: a <testsuite> per spec, a <testcase> per device. A failure is
// <failure>; a tool error is <error> (the kernel is not at fault); an expected failure passes.
// Each device's driver section is a <testsuite> "drivers: DEVICE", a <testcase> per finding: a
// <failure> only for a regression in regression mode (`check --baseline`).
#include <fmt/format.h>

#include <map>
#include <sstream>

#include "report/markup.hpp"
#include "report/reporters.hpp"

namespace clh {

namespace {

std::string xmlEscape(const std::string& s) {
  return escapeMarkup(s, Markup::xml);
}

// The counts of a <testsuite> or <testsuites>.
struct Counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double time = 0;
  void add(const UnitResult& u) {
    ++tests;
    failures += !isSuccess(u.status);
    errors += u.status == Status::tool_error;
    skipped += u.status == Status::skipped;
    time += u.seconds;
  }
};

// The <testcase> of one unit: its failure, error, skip or output, as its status says.
void writeUnitCase(std::ostream& os, const std::string& spec, const UnitResult& u) {
  os << fmt::format(
      "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\">\n", xmlEscape(spec),
      xmlEscape(u.family == "cases" ? u.device : u.device + " [" + u.family + "]"), u.seconds);
  std::ostringstream details;
  writeUnitDetails(details, u);
  std::string body = xmlEscape(details.str());
  const bool has_finding = u.failing && !u.failing->findings.empty();
  switch (u.status) {
    case Status::fail:
    case Status::unexpected_pass:
      os << fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n",
                        xmlEscape(has_finding ? u.failing->findings.front().summary : u.message),
                        has_finding ? std::string(toString(u.failing->findings.front().kind))
                                    : std::string("unexpected_pass"),
                        body);
      break;
    case Status::tool_error:
      os << fmt::format("      <error message=\"{}\" type=\"tool_error\">{}</error>\n",
                        xmlEscape(u.message), body);
      break;
    case Status::skipped:
      os << fmt::format("      <skipped message=\"{}\"/>\n", xmlEscape(u.message));
      break;
    case Status::expected_failure:
    case Status::not_reproduced:
      os << fmt::format("      <system-out>{}</system-out>\n", body);
      break;
    case Status::pass:
      break;
  }
  os << "    </testcase>\n";
}

// A device's driver section: a <testcase> per finding, failed only by a regression in
// regression mode.
void writeDriverSuite(std::ostream& os, const DriverReport& d, bool regression_mode) {
  int f = 0;
  for (const auto& x : d.findings) f += regression_mode && failsRegression(x.mark);
  os << fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">\n",
      xmlEscape("drivers: " + d.device), d.findings.size(), f);
  for (const auto& x : d.findings) {
    os << fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n",
                      xmlEscape("drivers: " + d.device), xmlEscape(x.check));
    const std::string text =
        fmt::format("{} {}: got {}; allowed {}; {}{}", toString(x.verdict), x.check, x.got,
                    x.allowed, x.detail, x.replay.empty() ? "" : "\nreplay: " + x.replay);
    if (regression_mode && failsRegression(x.mark))
      os << fmt::format("      <failure message=\"{}\" type=\"driver_{}\">{}</failure>\n",
                        xmlEscape(std::string(toString(x.mark)) + ": " + x.got), toString(x.mark),
                        xmlEscape(text));
    else
      os << fmt::format("      <system-out>{}</system-out>\n", xmlEscape(text));
    os << "    </testcase>\n";
  }
  os << "  </testsuite>\n";
}

}  // namespace

void writeJUnitReport(std::ostream& os, const Report& report) {
  std::map<std::string, std::vector<const UnitResult*>> bySpec;
  for (const auto& u : report.units) bySpec[u.spec].push_back(&u);
  Counts all;
  for (const auto& u : report.units) all.add(u);
  for (const auto& d : report.drivers)
    for (const auto& f : d.findings) {
      ++all.tests;
      all.failures += report.regression_mode && failsRegression(f.mark);
    }
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << fmt::format(
      "<testsuites name=\"clharness\"{} tests=\"{}\" failures=\"{}\" errors=\"{}\" "
      "skipped=\"{}\" time=\"{:.3f}\">\n",
      report.interrupted_by.empty() ? "" : " incomplete=\"true\"", all.tests, all.failures,
      all.errors, all.skipped, all.time);
  for (const auto& [spec, units] : bySpec) {
    Counts c;
    for (const auto* u : units) c.add(*u);
    os << fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
        "time=\"{:.3f}\">\n",
        xmlEscape(spec), units.size(), c.failures, c.errors, c.skipped, c.time);
    for (const auto* u : units) writeUnitCase(os, spec, *u);
    os << "  </testsuite>\n";
  }
  for (const auto& d : report.drivers) writeDriverSuite(os, d, report.regression_mode);
  if (!report.interrupted_by.empty())
    os << fmt::format(
        "  <testsuite name=\"clharness.interrupted\" tests=\"1\" failures=\"0\" errors=\"1\" "
        "skipped=\"0\">\n"
        "    <testcase classname=\"clharness\" name=\"interrupted\">\n"
        "      <error message=\"the run was interrupted by {}: {} of {} units ran\"/>\n"
        "    </testcase>\n"
        "  </testsuite>\n",
        report.interrupted_by, report.units.size(), report.units_planned);
  os << "</testsuites>\n";
}

}  // namespace clh
