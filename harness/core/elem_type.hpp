// The element types of buffers and scalar arguments: their OpenCL C words in one table, and the one
// dispatch from an ElemType to code written once for its C++ type (visitElemType).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/enum_words.hpp"

namespace clh {

/// Element types of buffers and scalar arguments (OpenCL C names).
enum class ElemType { i8, u8, i16, u16, i32, u32, i64, u64, f32, f64 };

/// The OpenCL C word of each element type, as specs spell it.
inline constexpr EnumWord<ElemType> kElemTypeWords[] = {
    {ElemType::i8, "char"},    {ElemType::u8, "uchar"},  {ElemType::i16, "short"},
    {ElemType::u16, "ushort"}, {ElemType::i32, "int"},   {ElemType::u32, "uint"},
    {ElemType::i64, "long"},   {ElemType::u64, "ulong"}, {ElemType::f32, "float"},
    {ElemType::f64, "double"},
};

/// A C++ type as a value, for the functions visitElemType calls.
template <class T>
struct TypeTag {
  using type = T;
};

/// Calls `f(TypeTag<T>{})` with the C++ type T of `type` (int8_t for char ... double for double)
/// and returns what it returns: the one place an ElemType becomes a C++ type.
template <class F>
constexpr decltype(auto) visitElemType(ElemType type, F&& f) {
  switch (type) {
    case ElemType::i8:
      return f(TypeTag<int8_t>{});
    case ElemType::u8:
      return f(TypeTag<uint8_t>{});
    case ElemType::i16:
      return f(TypeTag<int16_t>{});
    case ElemType::u16:
      return f(TypeTag<uint16_t>{});
    case ElemType::i32:
      return f(TypeTag<int32_t>{});
    case ElemType::u32:
      return f(TypeTag<uint32_t>{});
    case ElemType::i64:
      return f(TypeTag<int64_t>{});
    case ElemType::u64:
      return f(TypeTag<uint64_t>{});
    case ElemType::f32:
      return f(TypeTag<float>{});
    case ElemType::f64:
      return f(TypeTag<double>{});
  }
  throw std::logic_error("visitElemType: not an element type");
}

/// The ElemType of the C++ type T (a compile error for a type that is none).
template <class T>
constexpr ElemType elemTypeOf() {
  for (const auto& e : kElemTypeWords)
    if (visitElemType(e.value, []<class U>(TypeTag<U>) { return std::is_same_v<U, T>; }))
      return e.value;
  throw std::logic_error("elemTypeOf: not an element type");
}

std::optional<ElemType> elemTypeFromString(const std::string& name);  ///< "float", "uint", ...
std::string toString(ElemType t);                                     ///< OpenCL C spelling
/// Bytes of one element.
constexpr size_t sizeOf(ElemType t) {
  return visitElemType(t, []<class T>(TypeTag<T>) { return sizeof(T); });
}
constexpr bool isFloat(ElemType t) {
  return visitElemType(t, []<class T>(TypeTag<T>) { return std::is_floating_point_v<T>; });
}

}  // namespace clh
