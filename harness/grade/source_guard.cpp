// The include refusal (a small scan of the preprocessor's first phases) and the build-log filter.
#include "grade/source_guard.hpp"

#include <fmt/format.h>

#include <cctype>
#include <regex>
#include <sstream>
#include <vector>

namespace clh::grade {

namespace {

// The text as the preprocessor's directive parser sees it: trigraphs ??= and ??/ replaced, line
// splices removed, comments replaced by a space and string and character literals emptied. The
// newlines a splice or a comment removed are put back at the end of their logical line, so that
// line k of the result starts at line k of the input.
std::string directiveViewImpl(const std::string& in) {
  std::string t;
  t.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '?' && i + 2 < in.size() && in[i + 1] == '?' &&
        (in[i + 2] == '=' || in[i + 2] == '/')) {
      t += in[i + 2] == '=' ? '#' : '\\';
      i += 2;
    } else {
      t += in[i];
    }
  }
  std::string out;
  out.reserve(t.size());
  int pending = 0;  // newlines removed inside the current logical line
  auto newline = [&] {
    out.append(static_cast<size_t>(pending) + 1, '\n');
    pending = 0;
  };
  // Splices first, so that a comment or literal opener split over lines is still seen.
  std::string s;
  s.reserve(t.size());
  std::vector<int> spliced;  // per character of s: newlines spliced away just before it
  int removed = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '\\') {
      size_t j = i + 1;
      while (j < t.size() && (t[j] == ' ' || t[j] == '\t')) ++j;
      if (j < t.size() && t[j] == '\r') ++j;
      if (j < t.size() && t[j] == '\n') {
        ++removed;
        i = j;
        continue;
      }
    }
    s += t[i];
    spliced.push_back(removed);
    removed = 0;
  }
  enum { code, line_comment, block_comment, string, character } state = code;
  for (size_t i = 0; i < s.size(); ++i) {
    pending += spliced[i];
    const char c = s[i];
    const char next = i + 1 < s.size() ? s[i + 1] : '\0';
    switch (state) {
      case code:
        if (c == '/' && next == '/') {
          state = line_comment;
          out += ' ';
          ++i;
        } else if (c == '/' && next == '*') {
          state = block_comment;
          out += ' ';
          ++i;
        } else if (c == '"') {
          state = string;
          out += c;
        } else if (c == '\'') {
          state = character;
          out += c;
        } else if (c == '\n') {
          newline();
        } else {
          out += c;
        }
        break;
      case line_comment:
        if (c == '\n') {
          state = code;
          newline();
        }
        break;
      case block_comment:
        if (c == '\n') ++pending;
        if (c == '*' && next == '/') {
          state = code;
          ++i;
        }
        break;
      case string:
      case character:
        if (c == '\\' && next != '\0') {
          ++i;
        } else if ((state == string && c == '"') || (state == character && c == '\'')) {
          out += c;
          state = code;
        } else if (c == '\n') {  // an unterminated literal ends at the line's end
          state = code;
          newline();
        }
        break;
    }
  }
  return out;
}

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

std::string codeView(const std::string& text) {
  return directiveViewImpl(text);
}

std::optional<std::vector<Parameter>> kernelParameters(const std::string& text,
                                                       const std::string& kernel) {
  const std::string code = codeView(text);
  const std::regex head("(__kernel|\\bkernel)\\s[^;{}]*?\\b" + kernel + "\\s*\\(");
  std::smatch m;
  if (!std::regex_search(code, m, head)) return std::nullopt;
  size_t p = static_cast<size_t>(m.position(0) + m.length(0));
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
    while (end > 0 && s[end - 1] == ']') end = s.rfind('[', end - 1);  // array declarators
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
  if (std::regex_search(code, std::regex(R"((^|[^A-Za-z0-9_])(__)?local\s+[A-Za-z_])")))
    out.insert("local_memory");
  if (std::regex_search(code, std::regex(R"((^|[^A-Za-z0-9_])(work_group_)?barrier\s*\()")))
    out.insert("barrier");
  if (std::regex_search(code, std::regex(R"((^|[^A-Za-z0-9_])(atomic|atom)_[a-z_]+\s*\()")))
    out.insert("atomics");
  return out;
}

std::optional<std::string> refusedSource(const std::string& text) {
  const std::string view = directiveViewImpl(text);
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

std::string studentBuildLog(const std::string& log, const std::string& file_name) {
  static const std::regex diagnostic(
      R"(^(.*?):(\d+)(:\d+)?:? ?(fatal error|error|warning|note|remark)\b.*)");
  static const std::regex located(R"(^(.*?):(\d+):(\d+:)? .*)");
  static const std::regex summary(
      R"(^\s*\d+ (errors?|warnings?)( and \d+ (errors?|warnings?))? generated\.?\s*$)");
  static const std::regex ours(R"(^(no kernel '[^']*' could be created|cl[A-Za-z]+ failed: ).*)");
  std::istringstream in(log);
  std::string line, out;
  bool keep = false;
  int left = 0;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (std::regex_match(line, m, diagnostic) || std::regex_match(line, m, located)) {
      keep = m[1].str() == file_name;
    } else if (std::regex_match(line, summary) || std::regex_match(line, ours)) {
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
