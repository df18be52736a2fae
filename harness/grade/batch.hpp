// A batch of submissions on disk: finding the submission files, writing each result atomically the
// moment it is known, and reading back earlier results so that a re-run grades only what is
// missing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/files.hpp"  // writeFileAtomically, which the batch uses for its files
#include "grade/grade.hpp"

namespace clh::grade {

using clh::writeFileAtomically;  // the batch's files are written whole (core/files.hpp)

/// The submissions under `paths`: a file is one submission (id: its stem); a folder holds one per
/// `.cl` file below it, hidden entries skipped (id: the path below the folder, without ".cl").
/// Sorted by id. Throws std::invalid_argument for a missing path, no submission at all, or two
/// submissions with the same id.
std::vector<Submission> findSubmissions(const std::vector<std::string>& paths);

/// The files of one submission's result in the output folder.
struct ResultFiles {
  std::string json, markdown, gradescope;
};
ResultFiles resultFiles(const std::string& out_dir, const Submission& s);

/// The grade stored at `json_path`, if the file exists and is a grade (a damaged or foreign file
/// reads as none: it is graded again).
std::optional<Grade> readGrade(const std::string& json_path);

/// Writes the JSON, the Markdown feedback and, with `gradescope`, Gradescope's results.json of one
/// grade, each atomically; the JSON last, so that its presence means the others are there.
void writeGradeFiles(const ResultFiles& files, const Grade& grade, bool gradescope);

}  // namespace clh::grade
