// Submission discovery and the result files of a batch (atomic writes, reading results back).
#include "grade/batch.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/text.hpp"
#include "grade/report.hpp"

namespace fs = std::filesystem;

namespace clh::grade {

namespace {

bool hidden(const fs::path& relative) {
  for (const auto& part : relative)
    if (!part.empty() && part.string()[0] == '.') return true;
  return false;
}

}  // namespace

// Links, devices and pipes named *.cl, and links to folders, are listed, not read:
// readSubmissionFile refuses them, and the submission's feedback says why (a folder named *.cl is
// no submission).
std::vector<Submission> findSubmissions(const std::vector<std::string>& paths) {
  std::vector<Submission> out;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (auto it = fs::recursive_directory_iterator(
               p, fs::directory_options::skip_permission_denied, ec);
           it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) break;
        fs::path rel = it->path().lexically_relative(p);
        if (hidden(rel)) {
          if (it->is_directory()) it.disable_recursion_pending();
          continue;
        }
        // Links and special files named *.cl are submissions too: the reader refuses them with
        // a reason (readSubmissionFile), rather than following them or leaving them out silently.
        // So is a link to a folder, whatever its name: not followed, and said so in its row.
        const bool linkedFolder = it->is_symlink(ec) && it->is_directory(ec);
        if (!linkedFolder && (it->is_directory(ec) || it->path().extension() != ".cl")) continue;
        if (linkedFolder) {
          out.push_back({printable(rel.generic_string()), it->path().string(), {}});
          continue;
        }
        std::string id = printable((rel.parent_path() / rel.stem()).generic_string());
        out.push_back({id, it->path().string(), {}});
      }
    } else if (fs::exists(fs::symlink_status(p, ec))) {
      // Any file named (a link, a device or a pipe too): whether it can be read is the reader's
      // to say, as a refusal the submission's feedback carries.
      out.push_back({printable(fs::path(p).stem().string()), p, {}});
    } else {
      throw std::invalid_argument("no such file or folder: " + p);
    }
  }
  if (out.empty()) throw std::invalid_argument("no submissions (.cl files) under the paths given");
  std::sort(out.begin(), out.end(),
            [](const Submission& a, const Submission& b) { return a.id < b.id; });
  std::map<std::string, const Submission*> seen;
  for (const auto& s : out) {
    auto [it, fresh] = seen.emplace(s.safe_id(), &s);
    if (!fresh)
      throw std::invalid_argument("two submissions would share the result name '" + s.safe_id() +
                                  "': " + it->second->path + " and " + s.path +
                                  " (grade them in separate batches)");
  }
  return out;
}

ResultFiles resultFiles(const std::string& out_dir, const Submission& s) {
  fs::path d(out_dir);
  std::string base = s.safe_id();
  return {(d / (base + ".json")).string(), (d / (base + ".md")).string(),
          (d / (base + ".results.json")).string()};
}

std::optional<Grade> readGrade(const std::string& json_path) {
  std::ifstream in(json_path);
  if (!in) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  try {
    return j.get<Grade>();
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void writeGradeFiles(const ResultFiles& files, const Grade& grade, bool gradescope) {
  std::ostringstream md;
  writeFeedbackMarkdown(md, grade);
  writeFileAtomically(files.markdown, md.str());
  if (gradescope) writeFileAtomically(files.gradescope, gradescopeResults(grade).dump(2) + "\n");
  writeFileAtomically(files.json, nlohmann::json(grade).dump(2) + "\n");
}

}  // namespace clh::grade
