// A small tokenizer over OpenCL C source that finds synchronisation calls (skipping comments,
// literals, members and declarations) and removes one of them without moving any line.
#include "audit/mutants.hpp"

#include <algorithm>
#include <cctype>

namespace clh::audit {

namespace {

bool identStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool identChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// What came before an identifier: it decides whether the identifier can start a call.
struct Previous {
  enum class Kind { none, identifier, member, other } kind = Kind::none;
  std::string text;
};

class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}

  std::vector<SyncCall> run() {
    const auto& names = syncFunctions();
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\n') {
        newline();
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
        continue;
      }
      if (skipComment()) continue;
      if (c == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n') {  // a line splice
        ++i_;
        newline(/*splice=*/true);
        continue;
      }
      bool lineStart = atLineStart_;
      atLineStart_ = false;
      if (c == '#' && lineStart) {
        directive_ = true;
        prev_ = {Previous::Kind::other, "#"};
        ++i_;
        continue;
      }
      if (c == '"' || c == '\'') {
        skipLiteral(c);
        prev_ = {Previous::Kind::other, "literal"};
        continue;
      }
      if (identStart(c)) {
        size_t start = i_, col = i_ - lineStart_ + 1;
        int line = line_;
        while (i_ < s_.size() && identChar(s_[i_])) ++i_;
        std::string word(s_.substr(start, i_ - start));
        if (std::find(names.begin(), names.end(), word) != names.end() && canCall()) {
          size_t save = i_;
          int saveLine = line_;
          size_t saveLineStart = lineStart_;
          size_t close = 0;
          if (findCallEnd(close)) {
            SyncCall call;
            call.index = static_cast<int>(calls_.size()) + 1;
            call.function = word;
            call.line = line;
            call.column = static_cast<int>(col);
            call.begin = start;
            call.end = close;
            call.text = collapse(s_.substr(start, close - start));
            calls_.push_back(std::move(call));
          }
          // Scanning goes on right after the name: the arguments are ordinary tokens.
          i_ = save;
          line_ = saveLine;
          lineStart_ = saveLineStart;
        }
        prev_ = {Previous::Kind::identifier, word};
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(c))) {
        while (i_ < s_.size() && (identChar(s_[i_]) || s_[i_] == '.')) ++i_;
        prev_ = {Previous::Kind::other, "number"};
        continue;
      }
      if (c == '.' || (c == '-' && i_ + 1 < s_.size() && s_[i_ + 1] == '>')) {
        i_ += c == '.' ? 1 : 2;
        prev_ = {Previous::Kind::member, "."};
        continue;
      }
      prev_ = {Previous::Kind::other, std::string(1, c)};
      ++i_;
    }
    return std::move(calls_);
  }

 private:
  void newline(bool splice = false) {
    ++i_;
    ++line_;
    lineStart_ = i_;
    if (!splice) {
      directive_ = false;
      atLineStart_ = true;
    }
  }

  // A name is a call only where an expression may start: not after `.`/`->`, and not after
  // another identifier (a declaration such as `void barrier(...)`), except the keywords that a
  // statement can follow. In a directive, not the name a #define, #undef or #ifdef introduces.
  bool canCall() const {
    if (prev_.kind == Previous::Kind::member) return false;
    if (directive_) {
      static const std::vector<std::string> introducers = {"define", "undef", "ifdef", "ifndef",
                                                           "defined"};
      return std::find(introducers.begin(), introducers.end(), prev_.text) == introducers.end();
    }
    if (prev_.kind != Previous::Kind::identifier) return true;
    return prev_.text == "return" || prev_.text == "else" || prev_.text == "do";
  }

  bool skipComment() {
    if (s_[i_] != '/' || i_ + 1 >= s_.size()) return false;
    if (s_[i_ + 1] == '/') {
      while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      return true;
    }
    if (s_[i_ + 1] == '*') {
      i_ += 2;
      while (i_ < s_.size() && !(s_[i_] == '*' && i_ + 1 < s_.size() && s_[i_ + 1] == '/')) {
        if (s_[i_] == '\n') {
          ++line_;
          lineStart_ = i_ + 1;
        }
        ++i_;
      }
      i_ = std::min(s_.size(), i_ + 2);
      return true;
    }
    return false;
  }

  void skipLiteral(char quote) {
    ++i_;
    while (i_ < s_.size() && s_[i_] != quote && s_[i_] != '\n') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
        if (s_[i_ + 1] == '\n') {
          ++line_;
          lineStart_ = i_ + 2;
        }
        ++i_;
      }
      ++i_;
    }
    if (i_ < s_.size() && s_[i_] == quote) ++i_;
  }

  // From just after a name: whitespace or comments, then '(' ... the matching ')'. Sets `close`
  // one past it. Moves i_ (the caller restores it).
  bool findCallEnd(size_t& close) {
    auto skipBlank = [&] {
      while (i_ < s_.size()) {
        if (s_[i_] == '\n') {
          ++i_;
          ++line_;
          lineStart_ = i_;
        } else if (std::isspace(static_cast<unsigned char>(s_[i_])) ||
                   (s_[i_] == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n')) {
          ++i_;
        } else if (!skipComment()) {
          return;
        }
      }
    };
    skipBlank();
    if (i_ >= s_.size() || s_[i_] != '(') return false;
    int depth = 0;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\n') {
        ++i_;
        ++line_;
        lineStart_ = i_;
      } else if (skipComment()) {
      } else if (c == '"' || c == '\'') {
        skipLiteral(c);
      } else {
        ++i_;
        if (c == '(') ++depth;
        if (c == ')' && --depth == 0) {
          close = i_;
          return true;
        }
        if (c == ';' || c == '{' || c == '}') return false;  // not an argument list after all
      }
    }
    return false;
  }

  // The call's text on one line: comments and whitespace runs become one space; no space just
  // inside parentheses or before a comma.
  static std::string collapse(std::string_view t) {
    std::string out;
    bool space = false;
    for (size_t i = 0; i < t.size(); ++i) {
      char c = t[i];
      if (c == '/' && i + 1 < t.size() && (t[i + 1] == '/' || t[i + 1] == '*')) {
        bool block = t[i + 1] == '*';
        i += 2;
        while (i < t.size() &&
               !(block ? (t[i] == '*' && i + 1 < t.size() && t[i + 1] == '/') : t[i] == '\n'))
          ++i;
        if (block) ++i;
        space = true;
        continue;
      }
      if (c == '\\' && i + 1 < t.size() && t[i + 1] == '\n') {
        space = true;
        ++i;
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) {
        space = true;
        continue;
      }
      if (c == '"' || c == '\'') {  // a literal is kept as written
        size_t j = i + 1;
        while (j < t.size() && t[j] != c) j += t[j] == '\\' ? 2 : 1;
        if (space && !out.empty() && out.back() != '(') out += ' ';
        out.append(t.substr(i, std::min(j + 1, t.size()) - i));
        i = j;
        space = false;
        continue;
      }
      if (space && !out.empty() && out.back() != '(' && c != ')' && c != ',') out += ' ';
      space = false;
      out += c;
    }
    return out;
  }

  std::string_view s_;
  size_t i_ = 0;
  int line_ = 1;
  size_t lineStart_ = 0;
  bool atLineStart_ = true;
  bool directive_ = false;
  Previous prev_;
  std::vector<SyncCall> calls_;
};

}  // namespace

const std::vector<std::string>& syncFunctions() {
  static const std::vector<std::string> names = {"barrier",         "work_group_barrier",
                                                 "mem_fence",       "read_mem_fence",
                                                 "write_mem_fence", "wait_group_events"};
  return names;
}

std::vector<SyncCall> findSyncCalls(std::string_view source) {
  return Scanner(source).run();
}

std::string removeCall(std::string_view source, const SyncCall& call) {
  std::string out(source.substr(0, call.begin));
  out += "/* " + call.function + " removed */(void)0";
  for (size_t i = call.begin; i < call.end && i < source.size(); ++i)
    if (source[i] == '\n') out += (i > 0 && source[i - 1] == '\\') ? "\\\n" : "\n";
  if (call.end < source.size()) out.append(source.substr(call.end));
  return out;
}

std::string mutantLabel(const SyncCall& call) {
  return "without " + call.function + " #" + std::to_string(call.index) + " (line " +
         std::to_string(call.line) + ")";
}

}  // namespace clh::audit
