// Address spaces of out-of-bounds findings, and declarations of uninitialized variables, read
// from the submission's text.
#include "grade/explain.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "grade/source_guard.hpp"

namespace clh::grade {

namespace {

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

std::string trimmed(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return {};
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

// OpenCL C's built-in scalar and vector type names (a declaration starts with one of them).
const std::regex& typeWord() {
  static const std::regex re(
      R"(\b(?:unsigned\s+|signed\s+)?(?:bool|char|uchar|short|ushort|int|uint|long|ulong|half|float|double|size_t|ptrdiff_t|intptr_t|uintptr_t)(?:2|3|4|8|16)?\b)");
  return re;
}

}  // namespace

void nameAddressSpace(Finding& f) {
  if (f.kind != FindingKind::out_of_bounds) return;
  if (const size_t at = f.summary.find("(guard zone)"); at != std::string::npos) {
    f.address_space = "global";  // guard zones surround the buffers the host made
    f.summary.replace(at, 12, "(guard zone, global memory)");
  }
  if (!f.address_space.empty() && f.summary.find(f.address_space + " memory") == std::string::npos)
    f.summary += " (" + f.address_space + " memory)";
}

std::vector<Declaration> uninitializedDeclarations(const std::string& text, int use_line) {
  const std::vector<std::string> original = linesOf(text);
  const std::vector<std::string> code = linesOf(codeView(text));
  if (use_line < 1 || use_line > static_cast<int>(code.size())) return {};
  // The regular expressions below backtrack: they only ever see lines of ordinary length (a
  // longer line of a student's text, which could exhaust the stack, is not read for
  // declarations: the finding keeps its use alone).
  constexpr size_t kLongestLine = 1000;
  std::set<std::string> used;
  static const std::regex ident(R"([A-Za-z_]\w*)");
  const std::string& useText = code[static_cast<size_t>(use_line - 1)];
  if (useText.size() > kLongestLine) return {};
  for (std::sregex_iterator it(useText.begin(), useText.end(), ident), end; it != end; ++it)
    used.insert(it->str());

  static const std::regex localBefore(R"(\b(__local|local)\s+(const\s+|volatile\s+)*$)");
  static const std::regex qualifiers(
      R"(^\s*((const|volatile|restrict|__local|local|__private|private|__global|global|__constant|constant)\s+)*)");
  static const std::regex declarator(
      R"(^\s*(\*\s*)?((const|restrict)\s+)*([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*(=)?)");
  std::vector<Declaration> out;
  std::set<std::string> seen;  // the nearest declaration of a name is the one in scope
  // From the use back to the start of the file: each type word begins a declaration, a parameter
  // or a cast; its declarators run to the end of the statement, parameter list or cast.
  for (int ln = use_line; ln >= 1; --ln) {
    const std::string& line = code[static_cast<size_t>(ln - 1)];
    if (line.size() > kLongestLine) continue;
    for (std::sregex_iterator t(line.begin(), line.end(), typeWord()), end; t != end; ++t) {
      const size_t start = static_cast<size_t>(t->position());
      const size_t after = start + static_cast<size_t>(t->length());
      const size_t stop = line.find_first_of(";{)", after);
      // A parameter holds what the host passed (a list ends in ')' or goes on after a ','), but
      // the memory of a __local pointer parameter starts unwritten.
      const bool parameter =
          stop == std::string::npos ? trimmed(line).back() == ',' : line[stop] == ')';
      const bool local = std::regex_search(line.substr(0, start), localBefore);
      std::stringstream pieces(
          line.substr(after, stop == std::string::npos ? std::string::npos : stop - after));
      std::string piece;
      bool first = true;
      while (std::getline(pieces, piece, ',')) {
        // The next parameter has a type of its own: its own match reads it.
        if (!first && std::regex_search(std::regex_replace(piece, qualifiers, ""), typeWord(),
                                        std::regex_constants::match_continuous))
          break;
        first = false;
        std::smatch m;
        if (!std::regex_search(piece, m, declarator)) break;
        const std::string name = m[4].str();
        const bool pointer = m[1].matched, initialised = m[6].matched;
        if (!used.count(name) || seen.count(name)) continue;
        seen.insert(name);
        if (initialised || (pointer && !local) || (parameter && !(local && pointer))) continue;
        out.push_back({name, ln, trimmed(original[static_cast<size_t>(ln - 1)])});
      }
    }
  }
  return out;
}

void pointAtDeclaration(Finding& f, const std::string& text, const std::string& file) {
  if (f.kind != FindingKind::uninitialized || f.lines.empty() || text.empty()) return;
  std::vector<Declaration> decls = uninitializedDeclarations(text, f.lines.front().line);
  if (decls.empty()) return;
  std::string list;
  for (const auto& d : decls) {
    f.lines.push_back({file, d.line, d.text});
    list += fmt::format("{}`{}` (line {})", list.empty() ? "" : ", ", d.name, d.line);
  }
  f.summary += fmt::format("; declared without an initial value: {}", list);
}

}  // namespace clh::grade
