// Quoting for replay commands and exact device regexes (core/shell.hpp).
#include "core/shell.hpp"

namespace clh {

std::string shellQuote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of(
                        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./=,:") ==
                        std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string regexEscape(const std::string& s) {
  static const std::string special = R"(\^$.|?*+()[]{})";
  std::string out;
  for (char c : s) {
    if (special.find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string exactDeviceRegex(const std::string& display_name) {
  return "^" + regexEscape(display_name) + "$";
}

}  // namespace clh
