// The HTML page of `clharness grade --html FILE`: the class overview (points per rubric item, a
// histogram of totals) and a section per submission with its items, evidence and source lines.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "grade/grade.hpp"

namespace clh::grade {

/// The page. `sources` maps a submission id to its file, where the evidence's source lines are
/// read (findings name the file by its own name); a submission not in it shows the lines' text.
void writeGradeHtml(std::ostream& os, const Rubric& rubric, const std::vector<Grade>& grades,
                    const std::map<std::string, std::string>& sources);

/// The histogram's bins of totals out of `max_points`: one per point up to 20 points, else ten
/// equal ones; a total counts in the bin whose range holds it (the last bin holds the maximum).
std::vector<std::pair<std::string, int>> totalsHistogram(const std::vector<Grade>& grades,
                                                         double max_points);

}  // namespace clh::grade
