// Escaping text for the markup formats (JUnit XML, the HTML report): one rule, two dialects.
#pragma once

#include <string>
#include <string_view>

namespace clh {

enum class Markup { xml, html };

/// `text` made safe for element content and attribute values: & < > " ' as entities (' as
/// &apos; in XML, &#39; in HTML), and every control character either dialect cannot hold as
/// U+FFFD (XML 1.0 keeps tab, newline and carriage return; HTML keeps tab and newline and drops DEL
/// too). Kernel names, source lines, messages and students' text all pass through it.
std::string escapeMarkup(std::string_view text, Markup dialect);

}  // namespace clh
