// The HTML page of `clharness semantics` (drivers/html.hpp).
#include "drivers/html.hpp"

#include <map>

#include "core/version.hpp"
#include "drivers/section.hpp"
#include "report/html.hpp"

namespace clh::drivers {

std::vector<DriverReport> matrixSections(const Matrix& matrix,
                                         const std::vector<std::vector<Change>>* changes) {
  std::vector<DriverReport> out;
  for (size_t c = 0; c < matrix.size(); ++c) {
    const DeviceColumn& col = matrix[c];
    DriverReport d;
    d.device = col.name;
    d.driver_version = col.driver;
    std::map<std::string, const Change*> changed;
    if (changes && c < changes->size())
      for (const auto& ch : (*changes)[c]) changed[ch.check] = &ch;
    for (const auto& r : col.results) {
      DriverFinding f = rowFinding(r, "");
      auto it = changed.find(r.id);
      if (changes) {
        if (it == changed.end())
          f.mark = BaselineMark::known;
        else if (it->second->kind == Change::Kind::fix)
          f.mark = BaselineMark::fix;
        else if (it->second->kind == Change::Kind::added)
          f.mark = BaselineMark::fresh;
        else
          f.mark = BaselineMark::regression;
        if (it != changed.end()) f.before = it->second->before;
      }
      if (f.verdict == DriverVerdict::conforms &&
          (f.mark == BaselineMark::none || f.mark == BaselineMark::known)) {
        ++d.conforming;
        d.conforming_checks.push_back(f.check);
      } else {
        d.findings.push_back(std::move(f));
      }
    }
    for (const auto& [id, ch] : changed)
      if (ch->kind == Change::Kind::removed) {
        DriverFinding f;
        f.check = id;
        f.verdict = DriverVerdict::skipped;
        f.mark = BaselineMark::missing;
        f.before = ch->before;
        f.detail = "the baseline has this check; this run did not";
        d.findings.push_back(std::move(f));
      }
    out.push_back(std::move(d));
  }
  return out;
}

void writeSemanticsHtml(std::ostream& os, const Matrix& matrix,
                        const std::vector<std::vector<Change>>* changes) {
  using html::escape;
  html::beginPage(os, "clharness semantics");
  os << "<p class=\"meta\">clharness <b>" << escape(kClharnessVersionString) << "</b> &middot; "
     << matrix.size() << " device(s) &middot; "
     << (changes ? "compared with the baseline" : "no baseline compared") << "</p>\n";
  os << "<h2 id=\"devices\">Devices</h2>\n<table><tr><th>device</th><th>OpenCL</th>"
        "<th>driver</th><th>conforms</th><th>deviates</th><th>checks</th></tr>\n";
  for (const auto& col : matrix) {
    int conforms = 0, deviates = 0;
    for (const auto& r : col.results) {
      conforms += r.verdict == Verdict::conforms;
      deviates += r.verdict == Verdict::deviates;
    }
    os << "<tr><td>" << escape(col.name) << "</td><td>" << escape(col.version) << "</td><td>"
       << escape(col.driver) << "</td><td>" << conforms << "</td><td>" << deviates << "</td><td>"
       << col.results.size() << "</td></tr>\n";
  }
  os << "</table>\n<h2 id=\"matrix\">Driver matrix</h2>\n<p class=\"meta\">What each driver "
        "answered where the OpenCL specification forbids a call or leaves it open "
        "(docs/semantics.md). Hover a cell for the rule and details.</p>\n";
  os << html::renderMatrix(html::driverMatrix(matrixSections(matrix, changes)));
  if (changes) {
    size_t n = 0;
    os << "<h2 id=\"changes\">Changes against the baseline</h2>\n<ul>\n";
    for (const auto& list : *changes)
      for (const auto& ch : list)
        os << "<li><code>" << escape(ch.toString()) << "</code></li>\n", ++n;
    os << "</ul>\n<p>" << n << " change(s)</p>\n";
  }
  html::endPage(os, kClharnessVersionString);
}

}  // namespace clh::drivers
