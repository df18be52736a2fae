// Bodies for the functions a kernel's source declares, calls and never defines (scan/stubs.hpp).
#include "scan/stubs.hpp"

#include <algorithm>
#include <iterator>
#include <regex>
#include <set>

#include "core/text.hpp"

namespace clh::scan {

namespace {

// A declaration at file scope: the return type's words, the name, its parameters and ';'.
const std::regex& declarationPattern() {
  static const std::regex declaration(
      R"((^|\n)[ \t]*((?:[A-Za-z_][A-Za-z0-9_]*[ \t\*]+)+)([A-Za-z_][A-Za-z0-9_]*)\s*\(([^;{}()]*)\)\s*;)");
  return declaration;
}

/// `text` with its comments blanked out, newlines kept (so offsets and line numbers stay).
std::string withoutComments(const std::string& text) {
  static const std::regex comment(R"(//[^\n]*|/\*[^*]*\*+(?:[^/*][^*]*\*+)*/)");
  std::string code = text;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), comment);
       it != std::sregex_iterator(); ++it)
    for (auto i = it->position(); i < it->position() + it->length(); ++i)
      if (code[i] != '\n') code[i] = ' ';
  return code;
}

/// Whether `word` names a type (or a qualifier) rather than a parameter.
bool typeWord(const std::string& word) {
  static const std::set<std::string> words = {
      "void",       "bool",     "char",      "uchar",  "short",    "ushort",
      "int",        "uint",     "long",      "ulong",  "float",    "double",
      "half",       "unsigned", "signed",    "const",  "volatile", "restrict",
      "__restrict", "global",   "__global",  "local",  "__local",  "constant",
      "__constant", "private",  "__private", "struct", "union",    "enum"};
  static const std::regex vector(R"((u?(char|short|int|long)|float|double|half)(2|3|4|8|16))");
  return words.count(word) != 0 || std::regex_match(word, vector) ||
         (word.size() > 2 && word.compare(word.size() - 2, 2, "_t") == 0);
}

/// The parameter list with a name given to each parameter that has none (`int` -> `int a0`): C
/// before C23 names every parameter of a definition.
std::string namedParameters(const std::string& params) {
  if (trim(params).empty() || trim(params) == "void") return params;
  std::string out;
  size_t start = 0, n = 0;
  while (start <= params.size()) {
    size_t comma = params.find(',', start);
    if (comma == std::string::npos) comma = params.size();
    std::string p = trim(params.substr(start, comma - start));
    // The declarator's last identifier, before any array bounds.
    static const std::regex last(R"(([A-Za-z_][A-Za-z0-9_]*)\s*((\[[^\]]*\]\s*)*)$)");
    std::smatch m;
    const bool hasWords = std::regex_search(p, m, last);
    const bool named = hasWords && !typeWord(m[1].str()) && m.position(1) > 0;
    if (!named) {
      const std::string name = " __clh_stub_arg" + std::to_string(n);
      const size_t bounds = p.find('[');
      p = bounds == std::string::npos ? p + name : p.substr(0, bounds) + name + p.substr(bounds);
    }
    out += (out.empty() ? "" : ", ") + p;
    ++n;
    start = comma + 1;
  }
  return out;
}

}  // namespace

std::vector<BodilessFunction> bodilessFunctions(const std::string& source) {
  const std::string code = withoutComments(source);
  std::vector<BodilessFunction> out;
  for (auto it = std::sregex_iterator(code.begin(), code.end(), declarationPattern());
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[3].str();
    if (std::any_of(out.begin(), out.end(), [&](const auto& f) { return f.name == name; }))
      continue;
    const std::regex definition("\\b" + name + R"(\s*\([^;{}]*\)\s*\{)");
    const std::regex call("\\b" + name + R"(\s*\()");
    const auto calls =
        std::distance(std::sregex_iterator(code.begin(), code.end(), call), std::sregex_iterator());
    if (std::regex_search(code, definition) || calls < 2) continue;  // defined, or never called
    const size_t at = static_cast<size_t>((*it).position(3));
    if (std::count(code.begin(), code.begin() + at, '{') !=
        std::count(code.begin(), code.begin() + at, '}'))
      continue;  // inside a function: a statement, not a declaration
    BodilessFunction f;
    f.name = name;
    f.line = 1 + static_cast<int>(std::count(code.begin(), code.begin() + at, '\n'));
    const size_t from = static_cast<size_t>((*it).position(2));
    const size_t to = static_cast<size_t>((*it).position(0) + (*it).length(0));
    f.declaration = code.substr(from, to - from);
    f.declaration = trim(f.declaration.substr(0, f.declaration.rfind(';')));
    out.push_back(std::move(f));
  }
  return out;
}

std::string withStubs(const std::string& source, const std::vector<BodilessFunction>& functions) {
  std::string out = source;
  if (!out.empty() && out.back() != '\n') out += '\n';
  for (const auto& f : functions) {
    std::smatch m;
    const std::string declaration = f.declaration + ";";
    if (!std::regex_search(declaration, m, declarationPattern())) continue;
    std::string type;  // the return type without storage words
    static const std::regex storage(R"(\b(extern|static|inline|__inline)\b)");
    type = trim(std::regex_replace(m[2].str(), storage, ""));
    out += "// scan --stub-bodiless: '" + f.name + "' (declared at line " + std::to_string(f.line) +
           " without a body) returns zero\n";
    out += m[2].str() + f.name + "(" + namedParameters(m[4].str()) + ") {";
    if (type == "void") {
      out += "}\n";
      continue;
    }
    out += " union { " + type + " v; uchar b[sizeof(" + type +
           ")]; } __clh_stub; for (uint __clh_i = 0; __clh_i < sizeof(" + type +
           "); ++__clh_i) __clh_stub.b[__clh_i] = 0; return __clh_stub.v; }\n";
  }
  return out;
}

}  // namespace clh::scan
