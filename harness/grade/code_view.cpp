// The text as the preprocessor's directive parser sees it (codeView, grade/source_guard.hpp).
#include <string>
#include <vector>

#include "grade/source_guard.hpp"

namespace clh::grade {

namespace {

// Trigraphs ??= and ??/ replaced by the '#' and backslash they stand for (the only two a directive
// or a splice can hide behind).
std::string replaceDirectiveTrigraphs(const std::string& in) {
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
  return t;
}

// A text with its line splices removed, and per character the newlines spliced away just before it.
struct SplicedText {
  std::string text;
  std::vector<int> spliced;
};

// Splices first, so that a comment or literal opener split over lines is still seen.
SplicedText removeLineSplices(const std::string& t) {
  SplicedText s;
  s.text.reserve(t.size());
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
    s.text += t[i];
    s.spliced.push_back(removed);
    removed = 0;
  }
  return s;
}

// Comments replaced by a space and string and character literals emptied, on a spliced text; the
// newlines a splice or a comment removed put back at the end of their logical line. Each step
// returns how many characters past the current one it consumed.
class DirectiveScanner {
 public:
  explicit DirectiveScanner(const SplicedText& s) : s_(s) { out_.reserve(s.text.size()); }

  std::string run() {
    for (size_t i = 0; i < s_.text.size(); ++i) {
      pending_ += s_.spliced[i];
      const char c = s_.text[i];
      const char next = i + 1 < s_.text.size() ? s_.text[i + 1] : '\0';
      switch (state_) {
        case code:
          i += inCode(c, next);
          break;
        case line_comment:
          inLineComment(c);
          break;
        case block_comment:
          i += inBlockComment(c, next);
          break;
        case string:
        case character:
          i += inLiteral(c, next);
          break;
      }
    }
    return std::move(out_);
  }

 private:
  void newline() {
    out_.append(static_cast<size_t>(pending_) + 1, '\n');
    pending_ = 0;
  }

  size_t inCode(char c, char next) {
    if (c == '/' && next == '/') {
      state_ = line_comment;
      out_ += ' ';
      return 1;
    }
    if (c == '/' && next == '*') {
      state_ = block_comment;
      out_ += ' ';
      return 1;
    }
    if (c == '"') {
      state_ = string;
      out_ += c;
    } else if (c == '\'') {
      state_ = character;
      out_ += c;
    } else if (c == '\n') {
      newline();
    } else {
      out_ += c;
    }
    return 0;
  }

  void inLineComment(char c) {
    if (c == '\n') {
      state_ = code;
      newline();
    }
  }

  size_t inBlockComment(char c, char next) {
    if (c == '\n') ++pending_;
    if (c == '*' && next == '/') {
      state_ = code;
      return 1;
    }
    return 0;
  }

  size_t inLiteral(char c, char next) {
    if (c == '\\' && next != '\0') return 1;
    if ((state_ == string && c == '"') || (state_ == character && c == '\'')) {
      out_ += c;
      state_ = code;
    } else if (c == '\n') {  // an unterminated literal ends at the line's end
      state_ = code;
      newline();
    }
    return 0;
  }

  const SplicedText& s_;
  std::string out_;
  int pending_ = 0;  // newlines removed inside the current logical line
  enum { code, line_comment, block_comment, string, character } state_ = code;
};

}  // namespace

// Trigraphs ??= and ??/ replaced, line splices removed, comments replaced by a space and string and
// character literals emptied. The newlines a splice or a comment removed are put back at the end
// of their logical line, so that line k of the result starts at line k of the input.
std::string codeView(const std::string& text) {
  const SplicedText s = removeLineSplices(replaceDirectiveTrigraphs(text));
  return DirectiveScanner(s).run();
}

}  // namespace clh::grade
