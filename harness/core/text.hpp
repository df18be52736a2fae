// Small string helpers shared across layers: trimming blanks, a size list written "a,b,c", and
// text from outside made safe to print.
#pragma once

#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace clh {

/// `s` without leading and trailing blanks (spaces, tabs, newlines).
inline std::string trim(std::string_view s) {
  auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return std::string(s);
}

/// The sizes joined by commas, "64,1,1"; empty for none.
inline std::string commaList(const std::vector<size_t>& v) {
  std::string s;
  for (size_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

/// `s` safe to print on a terminal or into a text file a person reads: every control character
/// (C0, DEL, C1, and the bidirectional overrides that reorder a line) written as an escape,
/// `\x1b` or `\u202e`, and every byte that is not UTF-8 as `\xHH`; the rest as it was. With
/// `keep_lines`, newlines and tabs stay (a multi-line log). For names that come from outside the
/// tool, such as a submission's file name: no file name may clear or recolour the reader's screen.
std::string printable(std::string_view s, bool keep_lines = false);

}  // namespace clh
