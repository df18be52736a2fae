// How grades name things: run ends, submission files, a device in a replay command, student
// paths in feedback, and the fingerprint that says whether a grade is still current.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>

#include "core/enum_words.hpp"
#include "core/shell.hpp"
#include "core/sizes.hpp"
#include "core/text.hpp"
#include "grade/grade.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace clh::grade {

namespace {

std::string regexWord(const std::string& text) {
  std::string word = text.substr(0, text.find(' '));
  return regexEscape(word);
}

}  // namespace

namespace {
constexpr EnumWord<RunEnd> kRunEndWords[] = {
    {RunEnd::completed, "completed"},
    {RunEnd::timeout, "timeout"},
    {RunEnd::crashed, "crashed"},
    {RunEnd::tool_error, "tool_error"},
};
}  // namespace

std::string_view toString(RunEnd end) {
  return wordOf(kRunEndWords, end, "?");
}

std::string Submission::file_name() const {
  return fs::path(path).filename().string();
}

std::string Submission::safe_id() const {
  std::string out;
  for (char c : id) {
    if (c == '/')
      out += "__";
    else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')
      out += c;
    else
      out += '_';
  }
  if (out.empty() || out[0] == '.') out = "_" + out;
  return out;
}

const ItemGrade* Grade::item(const std::string& id) const {
  for (const auto& i : items)
    if (i.id == id) return &i;
  return nullptr;
}

std::string shortDeviceRegex(const std::string& device, const std::vector<std::string>& devices) {
  const std::vector<std::string> all = devices.empty() ? std::vector<std::string>{device} : devices;
  const size_t colon = device.find(": ");
  std::vector<std::string> candidates;
  if (colon != std::string::npos) {
    const std::string platform = device.substr(0, colon), name = device.substr(colon + 2);
    candidates.push_back(regexWord(platform));
    candidates.push_back(regexWord(platform) + ".*" + regexWord(name));
  }
  for (const auto& c : candidates) {
    if (c.empty()) continue;
    std::regex re(c, std::regex::ECMAScript | std::regex::icase);
    int matches = 0;
    bool self = false;
    for (const auto& d : all) {
      const bool hit = std::regex_search(d, re);
      matches += hit ? 1 : 0;
      self = self || (hit && d == device);
    }
    if (self && matches == 1) return c;
  }
  return exactDeviceRegex(device);
}

std::string gradeReplayCommand(const GradeContext& ctx, const Submission& s,
                               const std::string& device, const Sizes& sizes) {
  return fmt::format("{} grade --assignment {} {} --device {} --seed {} --sizes {}", ctx.tool,
                     shellQuote(ctx.assignment_argument), shellQuote(printable(s.file_name())),
                     shellQuote(shortDeviceRegex(device, ctx.devices)), ctx.seed,
                     shellQuote(formatSizes(sizes)));
}

namespace {

// `text` with PoCL's cache copies ("PATH/tempfile_X.cl", the path running back to a space, a colon
// or a quote) and Oclgrind's "input.cl" (after a space, a quote or '(' or at a line's start, and
// not followed by a word character) called `name`.
std::string compilerCopiesRenamed(const std::string& text, const std::string& name) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  auto pathStop = [](char c) {
    return std::isspace(static_cast<unsigned char>(c)) || c == ':' || c == '\'' || c == '"';
  };
  std::string out;
  size_t copied = 0;  // text[copied..] is not in `out` yet
  // The next candidates at or after `at`, each looked for again only once passed.
  size_t temp = text.find("tempfile_"), input = text.find("input.cl");
  for (size_t at = 0; at < text.size();) {
    if (temp != std::string::npos && temp < at) temp = text.find("tempfile_", at);
    if (input != std::string::npos && input < at) input = text.find("input.cl", at);
    if (temp == std::string::npos && input == std::string::npos) break;
    if (temp < input) {
      size_t end = temp + 9;
      while (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end]))) ++end;
      if (end == temp + 9 || text.compare(end, 3, ".cl") != 0) {
        at = temp + 1;
        continue;
      }
      end += 3;
      size_t start = temp;
      while (start > copied && !pathStop(text[start - 1])) --start;
      out.append(text, copied, start - copied).append(name);
      copied = at = end;
    } else {
      const size_t end = input + 8;
      const bool before = input == 0 || std::isspace(static_cast<unsigned char>(text[input - 1])) ||
                          text[input - 1] == '\'' || text[input - 1] == '"' ||
                          text[input - 1] == '(';
      const bool after = end >= text.size() || !word(text[end]);
      if (!before || !after || input < copied) {
        at = input + 1;
        continue;
      }
      out.append(text, copied, input - copied).append(name);
      copied = at = end;
    }
  }
  return out.append(text, copied, std::string::npos);
}

}  // namespace

std::string studentPaths(const std::string& text, const Submission& s) {
  if (text.empty()) return text;
  std::string out = text;
  auto replaceAll = [&out](const std::string& from, const std::string& to) {
    if (from.empty() || from == to) return;
    for (size_t pos = out.find(from); pos != std::string::npos;
         pos = out.find(from, pos + to.size()))
      out.replace(pos, from.size(), to);
  };
  std::error_code ec;
  std::string absolute = fs::absolute(s.path, ec).lexically_normal().string();
  replaceAll(absolute, s.file_name());
  if (s.path != s.file_name()) replaceAll(s.path, s.file_name());
  // PoCL builds a copy in its kernel cache (".../tempfile_XXXXXX.cl"); Oclgrind calls every
  // program "input.cl". Found by hand, in one pass: a log echoes a student's lines.
  return compilerCopiesRenamed(out, s.file_name());
}

std::string gradeFingerprint(const Assignment& a, const std::string& submission_bytes,
                             uint64_t seed, int cases, int simulator_cases,
                             const std::vector<std::string>& devices) {
  std::string all = std::string(kGradeSchema) + '\0' + submission_bytes + '\0' + a.spec_text +
                    '\0' + a.rubric_text + '\0' + a.reference_text + '\0' + std::to_string(seed) +
                    '\0' + std::to_string(cases) + '\0' + std::to_string(simulator_cases);
  std::vector<std::string> sorted = devices;
  std::sort(sorted.begin(), sorted.end());
  for (const auto& d : sorted) all += '\0' + d;
  return fmt::format("{:016x}", hash64(all, 0x6772616465ull));
}

}  // namespace clh::grade
