// The HTML page of `clharness grade` (grade/html.hpp).
#include "grade/html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "core/version.hpp"
#include "grade/report.hpp"
#include "report/html.hpp"

namespace clh::grade {

namespace {

using html::escape;

std::string itemVerdict(const ItemGrade& i) {
  if (i.passed)
    return html::badge(i.not_students_fault ? "pass (tool failure excused)" : "pass", "pass");
  if (!i.blocked_by.empty()) return html::badge("blocked by " + i.blocked_by, "skipped");
  if (!i.assessed) return html::badge("not assessed", "review");
  if (i.partial()) return html::badge("partial", "review");
  std::string kinds;
  for (auto k : i.kinds) kinds += (kinds.empty() ? "" : ", ") + std::string(toString(k));
  return html::badge(kinds.empty() ? "fail" : "fail: " + kinds, "fail");
}

std::string evidence(const Evidence& e, const std::vector<std::string>& folders) {
  std::string out = "<p class=\"meta\">on <b>" + escape(e.device) + "</b>";
  if (e.sizes)
    out += std::string(e.shrunk ? ", smallest failing case" : ", the case running then") +
           " <code>" + escape(html::formatSizesList(*e.sizes)) + "</code>";
  out += "</p>\n";
  if (!e.note.empty()) out += "<p>" + escape(e.note) + "</p>\n";
  for (const auto& f : e.findings) out += html::renderFinding(f, folders, false);
  for (const auto& f : e.symptoms) out += html::renderFinding(f, folders, true);
  if (!e.replay.empty()) out += "<pre class=\"cmd\">" + escape(e.replay) + "</pre>\n";
  return out;
}

void overview(std::ostream& os, const Rubric& rubric, const std::vector<Grade>& grades) {
  const double n = static_cast<double>(std::max<size_t>(1, grades.size()));
  os << "<h2 id=\"overview\">Class overview</h2>\n<table class=\"items\"><tr><th>item</th>"
        "<th>points</th><th>mean</th><th>passed</th><th class=\"bar-cell\">mean of the points</th>"
        "</tr>\n";
  for (const auto& item : rubric.items) {
    double sum = 0;
    int passed = 0;
    for (const auto& g : grades)
      if (const ItemGrade* i = g.item(item.id)) sum += i->points, passed += i->passed;
    const double mean = sum / n;
    os << fmt::format(
        "<tr><td><code>{}</code> {}</td><td class=\"pts\">{}</td><td class=\"pts\">{:.2f}</td>"
        "<td class=\"pts\">{} of {}</td><td class=\"bar-cell\"><div class=\"hbar\" "
        "style=\"width:{:.0f}%\"></div></td></tr>\n",
        escape(item.id), escape(item.title), formatPoints(item.points), mean, passed, grades.size(),
        item.points > 0 ? 100 * mean / item.points : 0);
  }
  os << "</table>\n";
  std::vector<html::Bar> bars;
  for (const auto& [label, count] : totalsHistogram(grades, rubric.maxPoints()))
    bars.push_back({label, static_cast<double>(count)});
  os << "<div class=\"plots\">"
     << html::renderBars("Totals of the class",
                         "total points (out of " + formatPoints(rubric.maxPoints()) + ")",
                         "submissions", bars)
     << "</div>\n";
  os << "<h3>Submissions</h3>\n<table><tr><th>submission</th><th>total</th>";
  for (const auto& item : rubric.items) os << "<th><code>" << escape(item.id) << "</code></th>";
  os << "<th></th></tr>\n";
  for (const auto& g : grades) {
    os << "<tr><td><a href=\"#" << html::anchorId("sub-", g.submission) << "\">"
       << escape(g.submission) << "</a></td><td class=\"pts\"><b>" << formatPoints(g.points)
       << "</b> / " << formatPoints(g.max_points) << "</td>";
    for (const auto& item : rubric.items) {
      const ItemGrade* i = g.item(item.id);
      os << "<td class=\"pts\">"
         << (i ? html::badge(formatPoints(i->points), i->passed      ? "pass"
                                                      : i->partial() ? "review"
                                                                     : "fail")
               : "")
         << "</td>";
    }
    os << "<td>" << (g.review ? html::badge("review", "review") : "") << "</td></tr>\n";
  }
  os << "</table>\n";
}

void submission(std::ostream& os, const Grade& g, const std::vector<std::string>& folders) {
  os << "<section id=\"" << html::anchorId("sub-", g.submission) << "\"><h2>"
     << escape(g.submission) << " <small class=\"meta\">" << escape(g.file) << " &middot; "
     << formatPoints(g.points) << " / " << formatPoints(g.max_points) << " points</small></h2>\n";
  if (g.review)
    os << "<p>" << html::badge("review", "review")
       << " some item could not be judged: an instructor should look.</p>\n";
  for (const auto& d : g.interface_differences)
    os << "<p class=\"finding\"><b>interface</b>: " << escape(d) << "</p>\n";
  os << "<table class=\"items\"><tr><th>item</th><th>verdict</th><th>points</th><th>note</th>"
        "</tr>\n";
  for (const auto& i : g.items)
    os << "<tr><td><code>" << escape(i.id) << "</code> " << escape(i.title) << "</td><td>"
       << itemVerdict(i) << "</td><td class=\"pts\">" << formatPoints(i.points) << " / "
       << formatPoints(i.max_points) << "</td><td>" << escape(i.note) << "</td></tr>\n";
  os << "</table>\n";
  for (const auto& i : g.items) {
    if (i.evidence.empty()) continue;
    os << "<h4><code>" << escape(i.id) << "</code>: evidence</h4>\n";
    if (!i.passed && i.assessed && i.blocked_by.empty())
      os << "<p>" << escape(hintFor(i.kinds.empty() ? FindingKind::other : i.kinds.front()))
         << "</p>\n";
    for (const auto& e : i.evidence) os << evidence(e, folders);
  }
  if (!g.other_findings.empty()) {
    os << "<h4>Other findings (no points)</h4>\n";
    for (const auto& e : g.other_findings) os << evidence(e, folders);
  }
  os << "<p class=\"meta\">devices: ";
  for (size_t r = 0; r < g.runs.size(); ++r)
    os << (r ? "; " : "") << escape(g.runs[r].device) << " (" << escape(toString(g.runs[r].end))
       << ", " << fmt::format("{:.1f} s", g.runs[r].seconds) << ")";
  os << "</p>\n<p><a href=\"#overview\">back to the overview</a></p></section>\n";
}

}  // namespace

std::vector<std::pair<std::string, int>> totalsHistogram(const std::vector<Grade>& grades,
                                                         double max_points) {
  const double top = std::max(1.0, max_points);
  const bool perPoint = top <= 20 && top == std::floor(top);
  const int bins = perPoint ? static_cast<int>(top) + 1 : 10;
  const double width = perPoint ? 1 : top / bins;
  std::vector<std::pair<std::string, int>> out;
  for (int b = 0; b < bins; ++b)
    out.emplace_back(
        perPoint ? formatPoints(b) : formatPoints(b * width) + "-" + formatPoints((b + 1) * width),
        0);
  for (const auto& g : grades) {
    int b = static_cast<int>(std::floor(std::max(0.0, g.points) / width));
    out[static_cast<size_t>(std::clamp(b, 0, bins - 1))].second++;
  }
  return out;
}

void writeGradeHtml(std::ostream& os, const Rubric& rubric, const std::vector<Grade>& grades,
                    const std::map<std::string, std::string>& sources) {
  const std::string assignment = grades.empty() ? rubric.title : grades.front().assignment;
  html::beginPage(os, "clharness grade: " + assignment);
  std::set<std::string> devices;
  for (const auto& g : grades)
    for (const auto& r : g.runs) devices.insert(r.device);
  os << "<p class=\"meta\">clharness <b>" << escape(kClharnessVersionString) << "</b> &middot; "
     << escape(rubric.title) << " &middot; " << grades.size() << " submission(s) &middot; seed <b>"
     << (grades.empty() ? 0 : grades.front().seed) << "</b> &middot; devices: ";
  size_t k = 0;
  for (const auto& d : devices) os << (k++ ? ", " : "") << escape(d);
  os << "</p>\n";
  overview(os, rubric, grades);
  for (const auto& g : grades) {
    auto it = sources.find(g.submission);
    std::vector<std::string> folders;
    if (it != sources.end())
      folders.push_back(std::filesystem::path(it->second).parent_path().string());
    submission(os, g, folders);
  }
  html::endPage(os, kClharnessVersionString);
}

}  // namespace clh::grade
