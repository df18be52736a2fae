// JUnit XML, as CI systems read it: a <testsuite> per spec, a <testcase> per device. A failure is
// <failure>; a tool error is <error> (the kernel is not at fault); an expected failure passes.
#include <fmt/format.h>

#include <map>
#include <sstream>

#include "core/reporters/reporters.hpp"

namespace clh {

namespace {

std::string xmlEscape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
          out += "\xEF\xBF\xBD";  // XML 1.0 forbids these controls: U+FFFD instead
        else
          out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace

void writeJUnitReport(std::ostream& os, const Report& report) {
  std::map<std::string, std::vector<const UnitResult*>> bySpec;
  for (const auto& u : report.units) bySpec[u.spec].push_back(&u);
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double time = 0;
  for (const auto& u : report.units) {
    ++tests;
    failures += !isSuccess(u.status);
    errors += u.status == Status::tool_error;
    skipped += u.status == Status::skipped;
    time += u.seconds;
  }
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  os << fmt::format(
      "<testsuites name=\"clharness\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
      "time=\"{:.3f}\">\n",
      tests, failures, errors, skipped, time);
  for (const auto& [spec, units] : bySpec) {
    int f = 0, e = 0, s = 0;
    double t = 0;
    for (const auto* u : units) {
      f += !isSuccess(u->status);
      e += u->status == Status::tool_error;
      s += u->status == Status::skipped;
      t += u->seconds;
    }
    os << fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
        "time=\"{:.3f}\">\n",
        xmlEscape(spec), units.size(), f, e, s, t);
    for (const auto* u : units) {
      os << fmt::format(
          "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\">\n", xmlEscape(spec),
          xmlEscape(u->family == "cases" ? u->device : u->device + " [" + u->family + "]"),
          u->seconds);
      std::ostringstream details;
      writeUnitDetails(details, *u);
      std::string body = xmlEscape(details.str());
      switch (u->status) {
        case Status::fail:
        case Status::unexpected_pass:
          os << fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n",
                            xmlEscape(u->failing && !u->failing->findings.empty()
                                          ? u->failing->findings.front().summary
                                          : u->message),
                            u->failing && !u->failing->findings.empty()
                                ? std::string(toString(u->failing->findings.front().kind))
                                : std::string("unexpected_pass"),
                            body);
          break;
        case Status::tool_error:
          os << fmt::format("      <error message=\"{}\" type=\"tool_error\">{}</error>\n",
                            xmlEscape(u->message), body);
          break;
        case Status::skipped:
          os << fmt::format("      <skipped message=\"{}\"/>\n", xmlEscape(u->message));
          break;
        case Status::expected_failure:
          os << fmt::format("      <system-out>{}</system-out>\n", body);
          break;
        case Status::pass:
          break;
      }
      os << "    </testcase>\n";
    }
    os << "  </testsuite>\n";
  }
  os << "</testsuites>\n";
}

}  // namespace clh
