// The barrier audit's terminal block and Markdown table (audit/audit.hpp; JSON: audit_json.cpp).
#include <fmt/format.h>

#include <algorithm>

#include "audit/audit.hpp"

namespace clh::audit {

namespace {

// At most `width` characters of a note (a build log's first line can be long).
std::string brief(const std::string& s, size_t width) {
  return s.size() <= width ? s : s.substr(0, width - 3) + "...";
}

std::string markdownCell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

// A device's full name in the terminal's block, "[sanitize]" after a sanitized entry's.
std::string shownDevice(const DeviceEvidence& d) {
  return d.sanitized ? d.device + " [sanitize]" : d.device;
}

}  // namespace

std::string renderAudit(const SpecAudit& a) {
  std::string out = fmt::format("{} ({}, kernel {}): ", a.spec, a.source, a.kernels);
  if (a.calls.empty()) return out + "no synchronisation call to audit\n";
  out += fmt::format("{} synchronisation call{} audited in {:.1f}s\n", a.calls.size(),
                     a.calls.size() == 1 ? "" : "s", a.seconds);
  size_t width = 0;
  for (const auto& c : a.calls)
    for (const auto& d : c.devices) width = std::max(width, shownDevice(d).size());
  for (const auto& c : a.calls) {
    out += fmt::format("  #{} line {:<4} {:<36} {}\n", c.call.index, c.call.line, c.call.text,
                       toString(c.verdict));
    for (const auto& d : c.devices) {
      out += fmt::format("      {:<{}}  {}\n", shownDevice(d), width, describe(d));
      if (!d.evidence.empty()) {
        const Finding& h = *headline(d.evidence);
        for (const auto& l : h.lines)
          out += fmt::format("      {:<{}}    line {}: {}\n", "", width, l.line, l.text);
      }
    }
  }
  return out;
}

std::string renderMarkdown(const std::vector<SpecAudit>& audits) {
  std::string out =
      "| kernel (spec) | line | call | verdict | evidence without it |\n"
      "| --- | --- | --- | --- | --- |\n";
  for (const auto& a : audits)
    for (const auto& c : a.calls) {
      std::string evidence;
      for (const auto& d : c.devices)
        evidence += (evidence.empty() ? "" : "<br>") + deviceLabel(d) + ": " +
                    (d.evidence.empty() ? brief(describe(d), 160) : describe(d));
      out += fmt::format("| {} (`{}`) | {} | `{}` | **{}** | {} |\n", markdownCell(a.kernels),
                         markdownCell(a.spec), c.call.line, markdownCell(c.call.text),
                         toString(c.verdict), markdownCell(evidence));
    }
  return out;
}

}  // namespace clh::audit
