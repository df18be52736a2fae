// Escaping for the markup formats (report/markup.hpp).
#include "report/markup.hpp"

namespace clh {

std::string escapeMarkup(std::string_view text, Markup dialect) {
  const bool xml = dialect == Markup::xml;
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += xml ? "&apos;" : "&#39;";
        break;
      default: {
        const bool kept = ch == '\n' || ch == '\t' || (xml && ch == '\r');
        if ((c < 0x20 && !kept) || (!xml && c == 0x7f))
          out += "\xEF\xBF\xBD";  // U+FFFD
        else
          out += ch;
      }
    }
  }
  return out;
}

}  // namespace clh
