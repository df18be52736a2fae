// The driver matrix of the HTML reports (report/html.hpp): checks x devices, a coloured cell per
// verdict, baseline marks drawn on the cell, and "not run" where a device reported nothing.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "report/html.hpp"

namespace clh::html {

namespace {

// At most `n` bytes of `text`, cut at a character boundary, "..." when cut.
std::string shorten(const std::string& text, size_t n) {
  if (text.size() <= n) return text;
  size_t cut = n - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "...";
}

std::string cellText(const DriverFinding& f) {
  switch (f.verdict) {
    case DriverVerdict::conforms:
      return "conforms";
    case DriverVerdict::deviates:
      return f.got.empty() ? "deviates" : "deviates: got " + f.got;
    case DriverVerdict::crashed:
      return f.got.empty() ? "crashed" : "crashed: " + f.got;
    case DriverVerdict::hung:
      return "hung";
    case DriverVerdict::observed:
      return f.got.empty() ? "observed" : "observed: " + f.got;
    case DriverVerdict::skipped:
      return f.detail.empty() ? "skipped" : "skipped: " + f.detail;
  }
  return std::string(toString(f.verdict));
}

std::string cellDetail(const DriverFinding& f) {
  std::string d;
  auto add = [&](const std::string& label, const std::string& text) {
    if (!text.empty()) d += (d.empty() ? "" : "\n") + label + text;
  };
  add("", f.title);
  add("allowed: ", f.allowed);
  add("baseline: ", f.before);
  if (f.verdict != DriverVerdict::skipped) add("", f.detail);
  add("replay: ", f.replay);
  return d;
}

}  // namespace

DriverMatrix driverMatrix(const std::vector<DriverReport>& drivers) {
  DriverMatrix m;
  std::map<std::string, size_t> column;
  std::map<std::string, std::string> titles;
  std::set<std::string> ids;
  for (const auto& d : drivers) {
    if (column.emplace(d.device, m.devices.size()).second) m.devices.push_back(d.device);
    for (const auto& f : d.findings) {
      ids.insert(f.check);
      if (!f.title.empty()) titles.emplace(f.check, f.title);
    }
    for (const auto& c : d.conforming_checks) ids.insert(c);
    const int unnamed = d.conforming - static_cast<int>(d.conforming_checks.size());
    if (d.conforming_checks.empty() && unnamed > 0)
      m.notes.push_back(fmt::format(
          "{}: {} check(s) conformed, but this report does not name them (written before "
          "conforming_checks): their cells read \"not run\"",
          d.device, unnamed));
  }
  // Rows by id: the checks of one kind (read.*, buffer.*, launch.*, shape.*) stay together.
  std::map<std::string, size_t> row;
  for (const auto& id : ids) {
    row[id] = m.checks.size();
    auto t = titles.find(id);
    m.checks.emplace_back(id, t == titles.end() ? "" : t->second);
  }
  for (const auto& d : drivers) {
    const size_t c = column[d.device];
    for (const auto& id : d.conforming_checks)
      m.cells[{row[id], c}] = {"conforms", "", "conforms", ""};
    // A listed finding says more than the count (a fix is conforming and marked): it wins.
    for (const auto& f : d.findings) {
      const std::string mark(toString(f.mark));
      m.cells[{row[f.check], c}] = {std::string(toString(f.verdict)), mark, cellText(f),
                                    cellDetail(f)};
    }
  }
  return m;
}

std::string cellClass(const MatrixCell* cell) {
  if (!cell) return "cell absent";
  std::string c = "cell v-" + cell->verdict;
  if (!cell->mark.empty() && cell->mark != "known") c += " m-" + cell->mark;
  return c;
}

std::string renderMatrix(const DriverMatrix& m) {
  if (m.devices.empty())
    return "<p class=\"noplot\">No driver section: the driver checks did not run.</p>\n";
  std::string out =
      "<div class=\"legend\"><b>verdict:</b>"
      "<span class=\"v-conforms\">conforms</span><span class=\"v-deviates\">deviates</span>"
      "<span class=\"v-crashed\">crashed</span><span class=\"v-hung\">hung</span>"
      "<span class=\"v-observed\">observed</span><span class=\"v-skipped\">skipped</span>"
      "<span class=\"cell absent\">not run / not listed</span>"
      "<b>&nbsp;baseline:</b><span class=\"m-new\">new</span>"
      "<span class=\"m-regression\">regression</span><span class=\"m-fix\">fix</span>"
      "<span class=\"m-missing\">missing</span><span class=\"m-flaky\">flaky</span></div>\n";
  // Many devices scroll sideways inside the page instead of widening it.
  out += "<div class=\"wide\"><table class=\"matrix\"><thead><tr><th>check</th>";
  for (const auto& d : m.devices) out += "<th class=\"dev\">" + escape(d) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (size_t r = 0; r < m.checks.size(); ++r) {
    const auto& [id, title] = m.checks[r];
    // One line a row: the title and a cell's whole text are in their tooltips.
    out += "<tr><td class=\"check\"" + (title.empty() ? "" : " title=\"" + escape(title) + "\"") +
           "><code>" + escape(id) + "</code></td>";
    for (size_t c = 0; c < m.devices.size(); ++c) {
      auto it = m.cells.find({r, c});
      const MatrixCell* cell = it == m.cells.end() ? nullptr : &it->second;
      out += "<td class=\"" + cellClass(cell) + "\"";
      if (cell)
        out += " title=\"" +
               escape(cell->text + (cell->detail.empty() ? "" : "\n" + cell->detail)) + "\"";
      out += ">";
      if (!cell) {
        out += "not run";
      } else {
        // The mark first: a long text is cut at the cell's edge, the mark never.
        if (!cell->mark.empty() && cell->mark != "known")
          out += "<span class=\"mark\">" + escape(cell->mark) + "</span>";
        out += escape(shorten(cell->text, 160));
      }
      out += "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n";
  for (const auto& n : m.notes) out += "<p class=\"note\">" + escape(n) + "</p>\n";
  return out;
}

}  // namespace clh::html
