// Small string helpers shared across layers: trimming blanks, and a size list written "a,b,c".
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

}  // namespace clh
