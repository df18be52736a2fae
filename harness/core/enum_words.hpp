// One table of words per enum, read both ways: a value's word for reports, JSON and messages, and
// the value a word names when a spec, a command line or a JSON file is read.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace clh {

/// A value of enum E and the word that spells it (a string literal).
template <class E>
struct EnumWord {
  E value;
  const char* word;
};

/// The word of `value` in `table`; `fallback` for a value the table lacks.
template <class E, size_t N>
constexpr const char* wordOf(const EnumWord<E> (&table)[N], E value, const char* fallback) {
  for (const auto& e : table)
    if (e.value == value) return e.word;
  return fallback;
}

/// The value `word` spells in `table`; none for a word the table lacks.
template <class E, size_t N>
constexpr std::optional<E> valueOf(const EnumWord<E> (&table)[N], std::string_view word) {
  for (const auto& e : table)
    if (word == e.word) return e.value;
  return std::nullopt;
}

/// Every value of `table`, in its order.
template <class E, size_t N>
std::vector<E> valuesOf(const EnumWord<E> (&table)[N]) {
  std::vector<E> out;
  for (const auto& e : table) out.push_back(e.value);
  return out;
}

}  // namespace clh
