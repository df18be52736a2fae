// What people read: a student's feedback (Markdown), Gradescope's results.json, the instructor's
// gradebook (CSV) and summary table. Small functions from Grade values to text; nothing prints.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "grade/grade.hpp"

namespace clh::grade {

/// One sentence a student can act on, for a finding kind.
std::string hintFor(FindingKind kind);
/// The same for a finding in one address space ("global", "local", "private", "constant"): an
/// out-of-bounds access in a __local array is not a global index past a rounded-up global size.
/// An empty or unknown space gives hintFor(kind).
std::string hintFor(FindingKind kind, const std::string& address_space);

/// A submission's feedback: the points table, then each item with its evidence (smallest failing
/// case, first mismatches, the race's two source lines, the build log) and replay commands.
void writeFeedbackMarkdown(std::ostream& os, const Grade& grade);

/// One item's section of the feedback (also each Gradescope test's output).
std::string itemMarkdown(const ItemGrade& item);

/// Gradescope's results.json: total score, execution time, and one test per rubric item with its
/// score, max_score, status, name and student-visible output (Markdown).
nlohmann::json gradescopeResults(const Grade& grade);

/// The gradebook: "submission,<item id>...,total", one row per grade, in the order given.
void writeGradebookCsv(std::ostream& os, const Rubric& rubric, const std::vector<Grade>& grades);

/// The instructor's table: points per item and total for each submission, what went wrong, and a
/// closing line with the mean and what needs a look by hand.
void writeSummaryTable(std::ostream& os, const Rubric& rubric, const std::vector<Grade>& grades);

/// "10", "7.5": points without trailing zeros.
std::string formatPoints(double points);

}  // namespace clh::grade
