// The one ElemType dispatch (visitElemType, elemTypeOf, sizeOf, isFloat) and the enum word tables
// read both ways (core/enum_words.hpp), with the words reports and JSON files carry.
#include "core/elem_type.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/modes.hpp"
#include "core/result.hpp"

namespace clh {
namespace {

TEST(ElemTypeDispatch, EachTypeIsItsOpenClType) {
  // The C++ type each word names in OpenCL C, and whether it is a float.
  const std::pair<const char*, size_t> words[] = {
      {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4},
      {"uint", 4}, {"long", 8},  {"ulong", 8}, {"float", 4},  {"double", 8},
  };
  ASSERT_EQ(std::size(kElemTypeWords), std::size(words));
  for (const auto& [word, bytes] : words) {
    const auto t = elemTypeFromString(word);
    ASSERT_TRUE(t) << word;
    EXPECT_EQ(toString(*t), word);
    EXPECT_EQ(sizeOf(*t), bytes) << word;
    const std::string w = word;
    EXPECT_EQ(isFloat(*t), w == "float" || w == "double") << word;
    const bool isSigned =
        visitElemType(*t, []<class T>(TypeTag<T>) { return std::is_signed_v<T>; });
    EXPECT_EQ(isSigned, w[0] != 'u') << word;
    // elemTypeOf is visitElemType read back.
    const ElemType back = visitElemType(*t, []<class T>(TypeTag<T>) { return elemTypeOf<T>(); });
    EXPECT_EQ(back, *t) << word;
  }
  static_assert(elemTypeOf<uint16_t>() == ElemType::u16);
  static_assert(elemTypeOf<double>() == ElemType::f64);
  EXPECT_EQ(toString(static_cast<ElemType>(99)), "?");
  EXPECT_THROW(sizeOf(static_cast<ElemType>(99)), std::logic_error);
}

TEST(EnumWords, ATableIsReadBothWays) {
  enum class Colour { red, green, blue };
  constexpr EnumWord<Colour> table[] = {{Colour::red, "red"}, {Colour::green, "green"}};
  static_assert(std::string_view(wordOf(table, Colour::green, "?")) == "green");
  EXPECT_STREQ(wordOf(table, Colour::blue, "none"), "none");  // not in the table: the fallback
  EXPECT_EQ(valueOf(table, "red"), Colour::red);
  EXPECT_FALSE(valueOf(table, "Red"));
  EXPECT_FALSE(valueOf(table, ""));
  EXPECT_EQ(valuesOf(table), (std::vector<Colour>{Colour::red, Colour::green}));
}

TEST(EnumWords, DriverWordsAsTheReportsWriteThem) {
  const std::pair<DriverVerdict, const char*> verdicts[] = {
      {DriverVerdict::conforms, "conforms"}, {DriverVerdict::deviates, "deviates"},
      {DriverVerdict::crashed, "crashed"},   {DriverVerdict::hung, "hung"},
      {DriverVerdict::observed, "observed"}, {DriverVerdict::skipped, "skipped"}};
  for (const auto& [v, word] : verdicts) {
    EXPECT_EQ(toString(v), word);
    EXPECT_EQ(driverVerdictFromString(word), v);
  }
  const std::pair<BaselineMark, const char*> marks[] = {
      {BaselineMark::none, ""},      {BaselineMark::known, "known"},
      {BaselineMark::fresh, "new"},  {BaselineMark::regression, "regression"},
      {BaselineMark::fix, "fix"},    {BaselineMark::missing, "missing"},
      {BaselineMark::flaky, "flaky"}};
  for (const auto& [m, word] : marks) {
    EXPECT_EQ(toString(m), word);
    EXPECT_EQ(baselineMarkFromString(word), m);
  }
  EXPECT_FALSE(baselineMarkFromString("fresh"));
  EXPECT_EQ(toString(Status::not_reproduced), "not_reproduced");
  EXPECT_EQ(statusFromString("not_reproduced"), Status::not_reproduced);
  EXPECT_EQ(toString(static_cast<Status>(99)), "fail");
}

TEST(EnumWords, ModesAsSpecsAndTheCommandLineSpellThem) {
  for (BufferMode m : allBufferModes()) EXPECT_EQ(bufferModeFromString(toString(m)), m);
  for (ReadMode m : allReadModes()) EXPECT_EQ(readModeFromString(toString(m)), m);
  EXPECT_EQ(allBufferModes().size(), 5u);
  EXPECT_EQ(allReadModes().size(), 5u);
  EXPECT_STREQ(toString(BufferMode::alloc_copy_host_ptr), "alloc_copy_host_ptr");
  EXPECT_STREQ(toString(ReadMode::nonblocking_finish), "nonblocking_finish");
  EXPECT_FALSE(bufferModeFromString("all"));
}

}  // namespace
}  // namespace clh
