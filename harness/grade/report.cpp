// Feedback in Markdown, Gradescope's results.json, the gradebook CSV and the summary table.
#include "grade/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string_view>

#include "cl/session.hpp"
#include "core/sizes.hpp"
#include "report/reporters.hpp"

namespace clh::grade {

namespace {

constexpr size_t kMismatchesShown = 5;
constexpr size_t kLogShown = 3000;

// For the instructor's table: the devices whose tools failed on an item nobody could judge.
std::string couldNotLook(const ItemGrade& i) {
  std::string who;
  for (const auto& e : i.evidence)
    if (!e.device.empty() &&
        std::find(i.kinds.begin(), i.kinds.end(), FindingKind::tool_error) != i.kinds.end())
      who += (who.empty() ? "" : ", ") + e.device.substr(0, e.device.find(':'));
  return who.empty() ? "" : " (" + who + " could not look)";
}

std::string verdict(const ItemGrade& i) {
  if (i.passed) return i.not_students_fault ? "pass (a tool failed: not your fault)" : "pass";
  if (!i.blocked_by.empty()) return "fail (not assessed: '" + i.blocked_by + "' failed)";
  if (!i.assessed) return "not assessed";
  if (i.partial()) return "partial";
  std::string kinds;
  for (auto k : i.kinds) kinds += (kinds.empty() ? "" : ", ") + std::string(toString(k));
  return kinds.empty() ? "fail" : "fail: " + kinds;
}

// A code block that no backquote run inside `text` can close.
std::string fenced(const std::string& text) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(std::max<size_t>(3, longest + 1), '`');
  std::string body = text.size() > kLogShown ? text.substr(0, kLogShown) + "\n... (cut)" : text;
  if (!body.empty() && body.back() != '\n') body += '\n';
  return fence + "\n" + body + fence + "\n";
}

std::string code(const std::string& text) {
  return text.find('`') == std::string::npos ? "`" + text + "`" : "`` " + text + " ``";
}

void writeFinding(std::ostream& os, const Finding& f) {
  os << fmt::format("- **{}**: {}\n", toString(f.kind), f.summary);
  for (const auto& l : f.lines)
    os << fmt::format("  - line {} of {}: {}\n", l.line, code(l.file),
                      l.text.empty() ? "" : code(l.text));
  for (size_t m = 0; m < f.mismatches.size() && m < kMismatchesShown; ++m)
    os << "  - " << code(describeMismatch(f.mismatches[m])) << "\n";
  if (f.mismatch_count > static_cast<int64_t>(std::min(f.mismatches.size(), kMismatchesShown)))
    os << fmt::format("  - ... {} elements differ in all\n", f.mismatch_count);
  if (!f.raw.empty() && (f.kind == FindingKind::build_error || f.kind == FindingKind::tool_error)) {
    os << "\n  " << (f.kind == FindingKind::build_error ? "Build log" : "What the tool said")
       << ":\n\n";
    std::istringstream in(fenced(f.raw));
    std::string line;
    while (std::getline(in, line)) os << "  " << line << "\n";
  }
}

}  // namespace

std::string formatPoints(double points) {
  return fmt::format("{:g}", roundPoints(points));
}

std::string hintFor(FindingKind kind) {
  switch (kind) {
    case FindingKind::wrong_result:
      return "Some elements differ from the correct answer. Replay the smallest failing case and "
             "check the "
             "index arithmetic that produces the elements listed.";
    case FindingKind::unwritten:
      return "Some output elements were never written: does every element get a work-item, and "
             "does your bounds "
             "check let the last ones through?";
    case FindingKind::build_error:
      return "The kernel does not compile; the build log names the line.";
    case FindingKind::race:
      return "Two work-items touch the same memory, at the two lines shown, with no barrier "
             "between them: a "
             "barrier is missing (or its fence does not cover that memory).";
    case FindingKind::out_of_bounds:
      return "A work-item reads or writes outside a buffer. The global size is often rounded up "
             "beyond the data, "
             "so the extra work-items need a bounds check; check your indices too.";
    case FindingKind::uninitialized:
      return "A value is read before anything wrote it: a variable without an initial value, or "
             "memory read "
             "before it was filled.";
    case FindingKind::divergence:
      return "Not every work-item of a work-group reached the same barrier: a barrier sits in a "
             "branch or loop "
             "that some work-items skip. Every work-item of a group must execute every barrier.";
    case FindingKind::timeout:
      return "The kernel did not finish in time and was stopped: look for a loop whose condition "
             "never changes.";
    case FindingKind::crash:
      return "The kernel killed the process running it, usually by writing far outside a buffer.";
    case FindingKind::launch_error:
      return "The kernel could not be launched the way the assignment launches it: check its name "
             "and "
             "parameters against the assignment's interface.";
    case FindingKind::tool_error:
      return "The grading tools failed here, not your kernel: no points were lost for it.";
    default:
      return "";
  }
}

std::string hintFor(FindingKind kind, const std::string& space) {
  if (kind != FindingKind::out_of_bounds) return hintFor(kind);
  if (space == "local")
    return "A work-item reads or writes outside a `__local` array: an index one past its end "
           "(`<=` where `<` belongs, or `k + 1` at the last element). A `__local` array holds "
           "what was declared or passed for one work-group (often one element per work-item), "
           "however large the global size: check each index against that length.";
  if (space == "private")
    return "An index runs past the end of an array declared inside the kernel (private memory): "
           "check the loop bound and the index against the array's declared length.";
  if (space == "global" || space == "constant")
    return "A work-item reads or writes outside a buffer. The global size is often rounded up "
           "beyond the data (to a multiple of the local size), so the work-items past the end "
           "need a bounds check such as `if (i < count)`; check your index arithmetic too.";
  return hintFor(kind);
}

std::string itemMarkdown(const ItemGrade& item) {
  std::ostringstream os;
  os << fmt::format("**{}** ({} / {} points)\n\n", verdict(item), formatPoints(item.points),
                    formatPoints(item.max_points));
  if (!item.note.empty()) os << item.note << ".\n\n";
  if (!item.passed && item.blocked_by.empty() && item.assessed)  // nothing to fix where unjudged
    for (auto k : item.kinds) {
      // One hint per memory space the findings of this kind were in (an out-of-bounds access in
      // local memory is another mistake than one in a global buffer).
      std::vector<std::string> spaces;
      for (const auto& e : item.evidence)
        for (const auto& f : e.findings)
          if (f.kind == k &&
              std::find(spaces.begin(), spaces.end(), f.address_space) == spaces.end())
            spaces.push_back(f.address_space);
      if (spaces.size() > 1)
        spaces.erase(std::remove(spaces.begin(), spaces.end(), ""), spaces.end());
      if (k != FindingKind::out_of_bounds || spaces.empty()) spaces = {""};
      for (const auto& space : spaces)
        if (std::string h = hintFor(k, space); !h.empty())
          os << (space.empty() || h == hintFor(k) ? std::string("*Hint:* ")
                                                  : "*Hint (" + space + " memory):* ")
             << h << "\n\n";
    }
  for (const auto& e : item.evidence) {
    if (e.findings.empty() && !e.note.empty()) {
      os << fmt::format("On {}{}: {}.\n\n", code(e.device),
                        e.sizes ? " at " + code(formatSizes(*e.sizes)) : "", e.note);
      if (!e.replay.empty()) os << "Replay: " << code(e.replay) << "\n\n";
      continue;
    }
    // A build error happens before any case: there is no failing case to show or replay.
    bool buildOnly = !e.findings.empty();
    for (const auto& f : e.findings) buildOnly = buildOnly && f.kind == FindingKind::build_error;
    if (e.device.empty())
      os << "Before any device";
    else
      os << fmt::format("On {}", code(e.device));
    if (!buildOnly && e.sizes && e.sizes->empty())
      os << ", the only case";
    else if (!buildOnly && e.sizes)
      os << (e.shrunk ? ", smallest failing case " : ", during the case ")
         << code(formatSizes(*e.sizes));
    os << ":\n\n";
    if (!e.note.empty()) os << e.note << ".\n\n";
    for (const auto& f : e.findings) writeFinding(os, f);
    if (!e.symptoms.empty()) {
      os << "\nIn the same case, as a consequence:\n\n";
      for (const auto& f : e.symptoms) writeFinding(os, f);
    }
    if (!e.replay.empty() && !buildOnly) os << "\nReplay: " << code(e.replay) << "\n";
    os << "\n";
  }
  return os.str();
}

void writeFeedbackMarkdown(std::ostream& os, const Grade& g) {
  os << fmt::format("# {}: {}\n\n", g.assignment_title.empty() ? g.assignment : g.assignment_title,
                    g.file);
  os << fmt::format("**{} / {} points**\n\n", formatPoints(g.points), formatPoints(g.max_points));
  os << "| Item | Result | Points |\n| --- | --- | ---: |\n";
  for (const auto& i : g.items)
    os << fmt::format("| {} | {} | {} / {} |\n", i.title, verdict(i), formatPoints(i.points),
                      formatPoints(i.max_points));
  os << "\n";
  if (!g.unassessed.empty()) {
    std::string list;
    for (const auto& id : g.unassessed)
      if (const ItemGrade* i = g.item(id))
        list += (list.empty() ? "" : ", ") +
                fmt::format("'{}' ({} points)", i->title, formatPoints(i->max_points));
    os << "> **Not assessed on the grading machine:** " << list << ". No device there could check "
       << (g.unassessed.size() == 1 ? "it" : "them") << ", so "
       << (g.unassessed.size() == 1 ? "it scores" : "they score")
       << " 0 here; this says nothing about your kernel. Your instructor chose to grade without "
       << (g.unassessed.size() == 1 ? "it" : "them") << ".\n\n";
  }
  if (!g.interface_differences.empty()) {
    os << "## Your kernel's parameters differ from the assignment's\n\n"
       << "The assignment launches the kernel with its own argument list; fix this first, the "
          "findings below may follow from it.\n\n";
    for (const auto& d : g.interface_differences) os << "- " << d << "\n";
    os << "\n";
  }
  for (const auto& i : g.items) {
    if (i.passed && i.evidence.empty() && i.note.empty()) continue;
    os << "## " << i.title << "\n\n" << itemMarkdown(i);
  }
  if (!g.other_findings.empty()) {
    os << "## Other findings (no points)\n\n";
    for (const auto& e : g.other_findings) {
      os << fmt::format("On {}:\n\n", code(e.device));
      for (const auto& f : e.findings) writeFinding(os, f);
      os << "\n";
    }
  }
  os << "## Devices\n\n";
  for (const auto& r : g.runs) {
    os << fmt::format("- {}{}: {}", code(r.device), r.sanitized ? " (sanitizer)" : "",
                      toString(r.end));
    // A size the generator drew twice runs once: count what ran, each case once.
    if (r.unit) {
      const int n = r.distinct_cases > 0 ? r.distinct_cases : r.unit->cases_run;
      os << fmt::format(", {} distinct case{}", n, n == 1 ? "" : "s");
      // Fewer than asked for, with nothing failing: the generator drew no other sizes here.
      if (!r.unit->failing && r.cases_asked > n)
        os << fmt::format(
            " ({} asked for: the sizes allowed on this device hold no more that the "
            "generator draws)",
            r.cases_asked);
    }
    if (!r.note.empty()) os << "; " << r.note;
    if (r.sanitized && r.unit && !r.unit->observations.empty())
      os << "; " << r.unit->observations.front();  // the device and sizes it looked at
    if (r.simulator && r.unit)  // which work-group shapes ran where the driver picks them
      for (const auto& o : r.unit->observations)
        if (isLocalShapesNote(o)) os << "; " << o;
    os << "\n";
  }
  os << fmt::format("\nSeed {}. Graded {} by clharness.\n", g.seed, g.graded_at);
}

nlohmann::json gradescopeResults(const Grade& g) {
  nlohmann::json tests = nlohmann::json::array();
  int number = 0;
  for (const auto& i : g.items) {
    nlohmann::json tags = nlohmann::json::array({std::string(toString(i.check))});
    for (auto k : i.kinds) tags.push_back(std::string(toString(k)));
    tests.push_back({{"name", i.title},
                     {"number", std::to_string(++number)},
                     {"score", roundPoints(i.points)},
                     {"max_score", i.max_points},
                     {"status", i.passed ? "passed" : "failed"},
                     {"output", itemMarkdown(i)},
                     {"output_format", "md"},
                     {"tags", tags},
                     {"visibility", "visible"}});
  }
  std::string summary = fmt::format("clharness graded {} for {}: {} / {} points.", g.file,
                                    g.assignment_title.empty() ? g.assignment : g.assignment_title,
                                    formatPoints(g.points), formatPoints(g.max_points));
  return {{"score", roundPoints(g.points)},
          {"execution_time", static_cast<int>(std::ceil(g.seconds))},
          {"output", summary},
          {"output_format", "md"},
          {"test_output_format", "md"},
          {"visibility", "visible"},
          {"stdout_visibility", "hidden"},
          {"extra_data",
           {{"clharness_schema", kGradeSchema},
            {"fingerprint", g.fingerprint},
            {"review", g.review},
            {"sandbox", g.sandbox}}},
          {"tests", tests}};
}

void writeGradebookCsv(std::ostream& os, const Rubric& rubric, const std::vector<Grade>& grades) {
  auto cell = [](std::string s) {
    // A text cell a spreadsheet would read as a formula (=, +, -, @, or a tab or carriage return
    // first: a file named "=HYPERLINK(...).cl") gets a leading quote, which shows it as text.
    if (!s.empty() && std::string_view("=+-@\t\r").find(s.front()) != std::string_view::npos)
      s.insert(0, 1, '\'');
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
  };
  // Items graded without a device that could check them are named in a last column.
  bool unassessed = false;
  for (const auto& g : grades) unassessed = unassessed || !g.unassessed.empty();
  os << "submission";
  for (const auto& item : rubric.items) os << "," << cell(item.id);
  os << ",total" << (unassessed ? ",notes" : "") << "\n";
  for (const auto& g : grades) {
    os << cell(g.submission);
    for (const auto& item : rubric.items) {
      const ItemGrade* ig = g.item(item.id);
      os << "," << (ig ? formatPoints(ig->points) : "");
    }
    os << "," << formatPoints(g.points);
    if (unassessed) {
      std::string ids;
      for (const auto& id : g.unassessed) ids += (ids.empty() ? "" : " ") + id;
      os << "," << cell(ids.empty() ? "" : "not assessed: " + ids);
    }
    os << "\n";
  }
}

void writeSummaryTable(std::ostream& os, const Rubric& rubric, const std::vector<Grade>& grades) {
  size_t idWidth = 10;
  for (const auto& g : grades) idWidth = std::max(idWidth, g.submission.size());
  std::vector<size_t> widths;
  os << fmt::format("{:<{}}", "SUBMISSION", idWidth);
  for (const auto& item : rubric.items) {
    std::string max = formatPoints(item.points);
    size_t w = std::max(item.id.size(), 2 * max.size() + 1);
    widths.push_back(w);
    std::string head = item.id;
    std::transform(head.begin(), head.end(), head.begin(),
                   [](unsigned char c) { return std::toupper(c); });
    os << fmt::format("  {:>{}}", head, w);
  }
  std::string totalMax = formatPoints(rubric.maxPoints());
  size_t totalWidth = std::max<size_t>(5, 2 * totalMax.size() + 1);
  os << fmt::format("  {:>{}}  NOTES\n", "TOTAL", totalWidth);
  double sum = 0;
  int review = 0;
  for (const auto& g : grades) {
    os << fmt::format("{:<{}}", g.submission, idWidth);
    std::string notes;
    for (size_t k = 0; k < rubric.items.size(); ++k) {
      const ItemGrade* ig = g.item(rubric.items[k].id);
      std::string cellText =
          ig ? formatPoints(ig->points) + "/" + formatPoints(ig->max_points) : "-";
      os << fmt::format("  {:>{}}", cellText, widths[k]);
      if (!ig) continue;
      std::string note;
      if (!ig->passed && !ig->blocked_by.empty())
        note = ig->id + ": after " + ig->blocked_by;
      else if (!ig->passed && !ig->assessed)
        note = ig->id + ": not assessed" + couldNotLook(*ig);
      else if (!ig->passed || ig->not_students_fault) {
        std::string kinds;
        for (auto kind : ig->kinds)
          kinds += (kinds.empty() ? "" : " ") + std::string(toString(kind));
        if (ig->partial()) kinds += std::string(kinds.empty() ? "" : " ") + "partial";
        note = ig->id + (ig->not_students_fault ? " excused" : "") +
               (kinds.empty() ? "" : ": " + kinds);
      }
      if (!note.empty()) notes += (notes.empty() ? "" : "; ") + note;
    }
    if (g.review) notes += std::string(notes.empty() ? "" : "; ") + "REVIEW";
    if (!g.interface_differences.empty())
      notes += std::string(notes.empty() ? "" : "; ") + "interface differs";
    os << fmt::format("  {:>{}}  {}\n", formatPoints(g.points) + "/" + formatPoints(g.max_points),
                      totalWidth, notes);
    sum += g.points;
    review += g.review ? 1 : 0;
  }
  os << fmt::format("{} submission{}", grades.size(), grades.size() == 1 ? "" : "s");
  if (!grades.empty())
    os << fmt::format(", mean {} / {}", formatPoints(sum / static_cast<double>(grades.size())),
                      totalMax);
  if (review) os << fmt::format(", {} to review by hand", review);
  os << "\n";
}

}  // namespace clh::grade
