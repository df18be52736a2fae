// Text from outside the tool made safe to print (core/text.hpp's printable).
#include "core/text.hpp"

#include <fmt/format.h>

namespace clh {

namespace {

// The length of the UTF-8 sequence at s[i] and its code point; 0 when the bytes are not one.
size_t utf8At(std::string_view s, size_t i, char32_t& cp) {
  const auto b = static_cast<unsigned char>(s[i]);
  const size_t n = b >= 0xF0 && b < 0xF5 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 && b < 0xE0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  cp = b & (0xFF >> (n + 1));
  for (size_t k = 1; k < n; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3F);
  }
  const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
  return overlong || surrogate || cp > 0x10FFFF ? 0 : n;
}

bool hiddenControl(char32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) ||      // C1: 0x9B is a terminal's CSI
         (cp >= 0x202A && cp <= 0x202E) ||  // bidirectional embeddings and overrides
         (cp >= 0x2066 && cp <= 0x2069);    // bidirectional isolates
}

}  // namespace

std::string printable(std::string_view s, bool keep_lines) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      const bool line = keep_lines && (b == '\n' || b == '\t');
      if ((b < 0x20 || b == 0x7F) && !line)
        out += fmt::format("\\x{:02x}", b);
      else
        out += static_cast<char>(b);
      ++i;
      continue;
    }
    char32_t cp = 0;
    const size_t n = utf8At(s, i, cp);
    if (n == 0) {
      out += fmt::format("\\x{:02x}", b);
      ++i;
    } else if (hiddenControl(cp)) {
      out += fmt::format("\\u{:04x}", static_cast<uint32_t>(cp));
      i += n;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace clh
