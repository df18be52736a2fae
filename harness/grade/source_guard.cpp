// The include refusal (a small scan of the preprocessor's first phases) and the build-log filter.
#include "grade/source_guard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>
#include <string_view>
#include <vector>

namespace clh::grade {

namespace {

bool identChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string squeeze(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// A type as the launch sees it: no const/volatile/restrict, address spaces without "__",
// "unsigned int" as "uint", pointers written "T*".
std::string canonicalType(const std::string& type) {
  std::string t;
  for (char c : type) {
    if (c == '*')
      t += " * ";
    else
      t += c;
  }
  std::istringstream words(t);
  std::vector<std::string> kept;
  std::string w;
  while (words >> w) {
    if (w.rfind("__", 0) == 0 && w != "__") w = w.substr(2);
    if (w == "const" || w == "volatile" || w == "restrict" || w == "private") continue;
    kept.push_back(w);
  }
  std::string out;
  for (size_t i = 0; i < kept.size(); ++i) {
    std::string k = kept[i];
    if (k == "unsigned" && i + 1 < kept.size() &&
        (kept[i + 1] == "int" || kept[i + 1] == "char" || kept[i + 1] == "short" ||
         kept[i + 1] == "long")) {
      k = "u" + kept[++i];
    } else if (k == "unsigned") {
      k = "uint";
    }
    if (k == "*") {
      out += "*";
      continue;
    }
    out += (out.empty() || out.back() == '*' ? "" : " ") + k;
  }
  return out;
}

bool sameLaunchType(const std::string& a, const std::string& b) {
  const std::string x = canonicalType(a), y = canonicalType(b);
  if (x == y) return true;
  // A 32-bit count given as int or uint is passed alike.
  auto int32 = [](const std::string& t) { return t == "int" || t == "uint"; };
  return int32(x) && int32(y);
}

}  // namespace

std::optional<std::vector<Parameter>> kernelParameters(const std::string& text,
                                                       const std::string& kernel) {
  const std::string code = codeView(text);
  // One pass over the identifiers (no backtracking regular expression: the text is a student's):
  // after `kernel` or `__kernel`, up to the next ';', '{' or '}', the name followed by '('.
  size_t p = std::string::npos;
  bool inHead = false;
  for (size_t i = 0; i < code.size() && p == std::string::npos;) {
    const char c = code[i];
    if (c == ';' || c == '{' || c == '}') {
      inHead = false;
      ++i;
      continue;
    }
    if (!identChar(c)) {
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < code.size() && identChar(code[i])) ++i;
    const std::string_view word(code.data() + start, i - start);
    if (word == "kernel" || word == "__kernel") {
      inHead = true;
    } else if (inHead && word == kernel) {
      size_t after = i;
      while (after < code.size() && std::isspace(static_cast<unsigned char>(code[after]))) ++after;
      if (after < code.size() && code[after] == '(') p = after + 1;
    }
  }
  if (p == std::string::npos) return std::nullopt;
  int depth = 1;
  std::string current;
  std::vector<std::string> parts;
  for (; p < code.size() && depth > 0; ++p) {
    const char c = code[p];
    if (c == '(') ++depth;
    if (c == ')' && --depth == 0) break;
    if (c == ',' && depth == 1) {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!squeeze(current).empty() || !parts.empty()) parts.push_back(current);
  std::vector<Parameter> out;
  for (const auto& part : parts) {
    std::string s = squeeze(part);
    if (s == "void") continue;
    size_t end = s.size();
    while (end > 0 && s[end - 1] == ']') {  // array declarators
      const size_t open = s.rfind('[', end - 1);
      end = open == std::string::npos ? 0 : open;
    }
    size_t start = end;
    while (start > 0 && identChar(s[start - 1])) --start;
    Parameter param;
    param.name = s.substr(start, end - start);
    param.type = squeeze(s.substr(0, start));
    out.push_back(param);
  }
  return out;
}

std::vector<std::string> interfaceDifferences(const std::vector<Parameter>& want,
                                              const std::vector<Parameter>& got) {
  std::vector<std::string> out;
  auto list = [](const std::vector<Parameter>& ps) {
    std::string s;
    for (const auto& p : ps) s += (s.empty() ? "" : ", ") + squeeze(p.type + " " + p.name);
    return "(" + s + ")";
  };
  if (want.size() != got.size()) {
    out.push_back(fmt::format("your kernel takes {} parameter{} {}; the assignment passes {}: {}",
                              got.size(), got.size() == 1 ? "" : "s", list(got), want.size(),
                              list(want)));
    return out;
  }
  // The same names in another order: the arguments land in the wrong parameters.
  std::set<std::string> wantNames, gotNames;
  for (const auto& p : want) wantNames.insert(p.name);
  for (const auto& p : got) gotNames.insert(p.name);
  if (wantNames == gotNames && wantNames.size() == want.size())
    for (size_t i = 0; i < want.size(); ++i)
      if (got[i].name != want[i].name) {
        out.push_back(fmt::format(
            "your parameters are in another order than the assignment's: yours {}, the "
            "assignment's {}; the arguments are passed in the assignment's order, so your "
            "parameter {} '{}' receives what the assignment calls '{}'",
            list(got), list(want), i + 1, got[i].name, want[i].name));
        break;
      }
  for (size_t i = 0; i < want.size(); ++i)
    if (!sameLaunchType(want[i].type, got[i].type))
      out.push_back(fmt::format(
          "parameter {} '{}' is declared '{}'; the assignment passes '{}' there ('{}')", i + 1,
          got[i].name, squeeze(got[i].type), squeeze(want[i].type), want[i].name));
  return out;
}

const std::vector<std::string>& knownTechniques() {
  static const std::vector<std::string> all = {"local_memory", "barrier", "atomics"};
  return all;
}

std::set<std::string> techniquesUsed(const std::string& text) {
  const std::string code = codeView(text);
  std::set<std::string> out;
  // One pass over the identifiers (no backtracking regular expression over a student's text).
  auto lowerWord = [](std::string_view w) {
    return !w.empty() && std::all_of(w.begin(), w.end(),
                                     [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
  };
  for (size_t i = 0; i < code.size();) {
    if (!identChar(code[i])) {
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < code.size() && identChar(code[i])) ++i;
    const std::string_view word(code.data() + start, i - start);
    size_t next = i;
    while (next < code.size() && std::isspace(static_cast<unsigned char>(code[next]))) ++next;
    const bool call = next < code.size() && code[next] == '(';
    if ((word == "local" || word == "__local") && next > i && next < code.size() &&
        (std::isalpha(static_cast<unsigned char>(code[next])) || code[next] == '_'))
      out.insert("local_memory");
    if ((word == "barrier" || word == "work_group_barrier") && call) out.insert("barrier");
    if (call && ((word.substr(0, 7) == "atomic_" && lowerWord(word.substr(7))) ||
                 (word.substr(0, 5) == "atom_" && lowerWord(word.substr(5)))))
      out.insert("atomics");
  }
  return out;
}

std::optional<std::string> refusedSource(const std::string& text) {
  const std::string view = codeView(text);
  std::istringstream lines(view);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    size_t p = line.find_first_not_of(" \t\f\v\r");
    if (p == std::string::npos) continue;
    bool directive = false;
    if (line[p] == '#') {
      directive = true;
      ++p;
    } else if (line.compare(p, 2, "%:") == 0) {  // the digraph of '#'
      directive = true;
      p += 2;
    }
    if (directive) {
      p = line.find_first_not_of(" \t\f\v\r", p);
      size_t end = p;
      while (end != std::string::npos && end < line.size() && identChar(line[end])) ++end;
      const std::string name = p == std::string::npos ? "" : line.substr(p, end - p);
      if (name == "include" || name == "include_next" || name == "import" || name == "embed")
        return fmt::format(
            "line {}: '#{}' is not allowed: a submission is built from its own text only, so it "
            "cannot include another file (put everything the kernel needs in this one file)",
            number, name);
    }
    for (const char* word : {"__has_include_next", "__has_include", "__has_embed"}) {
      for (size_t at = line.find(word); at != std::string::npos; at = line.find(word, at + 1)) {
        const size_t after = at + std::char_traits<char>::length(word);
        if ((at > 0 && identChar(line[at - 1])) || (after < line.size() && identChar(line[after])))
          continue;
        return fmt::format(
            "line {}: '{}' is not allowed: a submission is built from its own text only, and may "
            "not ask about files of the grading machine",
            number, word);
      }
    }
  }
  return std::nullopt;
}

namespace {

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

size_t digitsAt(std::string_view s, size_t at) {
  size_t n = 0;
  while (at + n < s.size() && std::isdigit(static_cast<unsigned char>(s[at + n]))) ++n;
  return n;
}

bool severityAt(std::string_view s, size_t at) {
  for (std::string_view word : {"fatal error", "error", "warning", "note", "remark"})
    if (startsWith(s.substr(std::min(at, s.size())), word)) {
      const size_t after = at + word.size();
      return after >= s.size() || !identChar(s[after]);
    }
  return false;
}

// The file a compiler diagnostic is located in: "FILE:L:C: error: ...", "FILE:L: note: ...",
// "FILE:L:C: text" (a located continuation), or PoCL's "error: FILE:L:C: ...". Read by hand, in
// one pass (a build log echoes a student's lines, of any length).
std::optional<std::string> diagnosticFile(std::string_view line) {
  for (std::string_view prefix : {"fatal error: ", "error: ", "warning: ", "note: ", "remark: "})
    if (startsWith(line, prefix)) {
      if (auto file = diagnosticFile(line.substr(prefix.size()))) return file;
      break;
    }
  for (size_t colon = line.find(':'); colon != std::string_view::npos;
       colon = line.find(':', colon + 1)) {
    size_t p = colon + 1;
    const size_t line_digits = digitsAt(line, p);
    if (line_digits == 0) continue;
    p += line_digits;
    // FILE:L:C: text, FILE:L: text
    if (p < line.size() && line[p] == ':') {
      size_t q = p + 1;
      const size_t col = digitsAt(line, q);
      if (col > 0 && q + col < line.size() && line[q + col] == ':') q += col + 1;
      if (q < line.size() && line[q] == ' ') return std::string(line.substr(0, colon));
    }
    // FILE:L[:C][:][ ]severity
    size_t q = p;
    if (q < line.size() && line[q] == ':' && digitsAt(line, q + 1) > 0)
      q += 1 + digitsAt(line, q + 1);
    if (q < line.size() && line[q] == ':') ++q;
    if (q < line.size() && line[q] == ' ') ++q;
    if (severityAt(line, q)) return std::string(line.substr(0, colon));
  }
  return std::nullopt;
}

// "1 error generated.", "2 warnings and 1 error generated."
bool summaryLine(std::string_view line) {
  std::istringstream words{std::string(line)};
  std::vector<std::string> w;
  for (std::string x; words >> x;) w.push_back(x);
  auto count = [](const std::string& x) {
    return !x.empty() &&
           std::all_of(x.begin(), x.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  auto kind = [](const std::string& x) {
    return x == "error" || x == "errors" || x == "warning" || x == "warnings";
  };
  const bool generated = !w.empty() && (w.back() == "generated" || w.back() == "generated.");
  if (!generated) return false;
  if (w.size() == 3) return count(w[0]) && kind(w[1]);
  if (w.size() == 6) return count(w[0]) && kind(w[1]) && w[2] == "and" && count(w[3]) && kind(w[4]);
  return false;
}

// clharness's own one-line messages.
bool oursLine(std::string_view line) {
  if (startsWith(line, "no kernel '")) {
    const size_t close = line.find('\'', 11);
    return close != std::string_view::npos && startsWith(line.substr(close), "' could be created");
  }
  if (!startsWith(line, "cl")) return false;
  size_t p = 2;
  while (p < line.size() && std::isalpha(static_cast<unsigned char>(line[p]))) ++p;
  return p > 2 && startsWith(line.substr(p), " failed: ");
}

}  // namespace

std::string studentBuildLog(const std::string& log, const std::string& file_name) {
  std::istringstream in(log);
  std::string line, out;
  bool keep = false;
  int left = 0;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (auto file = diagnosticFile(line)) {
      keep = *file == file_name;
    } else if (summaryLine(line) || oursLine(line)) {
      out += line + "\n";
      keep = false;
      continue;
    } else if (line.rfind("In file included from", 0) == 0) {
      keep = false;
    }
    if (keep)
      out += line + "\n";
    else if (line.find_first_not_of(" \t") != std::string::npos)
      ++left;
  }
  if (left > 0)
    out += fmt::format("({} line{} of the compiler's output not about {} left out)\n", left,
                       left == 1 ? "" : "s", file_name);
  return out;
}

std::string withoutHostPaths(const std::string& text) {
  static const std::regex path(R"((^|[\s'"(=:,\[])/[^\s'"()\],:]+)");
  return std::regex_replace(text, path, "$1<path>");
}

}  // namespace clh::grade
