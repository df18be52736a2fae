// Comparison rules. Floats: exact is bitwise-or-equal (NaN == NaN, +0 == -0); tolerance is
// |got - want| <= abs + rel*|want| with NaN/Inf only equal to themselves; ulp counts representable
// values between the two.
#include "core/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace clh {

namespace {

constexpr uint8_t kPoisonByte = 0xA5;
constexpr uint32_t kPoisonF32 = 0x7FA5A5A5u;            // a NaN no arithmetic produces
constexpr uint64_t kPoisonF64 = 0x7FF4A5A5A5A5A5A5ull;  // likewise

template <class T>
std::string show(T v) {
  if constexpr (std::is_same_v<T, float>)
    return fmt::format("{:.9g}", v);  // round-trip digits
  else if constexpr (std::is_same_v<T, double>)
    return fmt::format("{:.17g}", v);
  else if constexpr (sizeof(T) == 1)
    return fmt::format("{}", static_cast<int>(v));
  else
    return fmt::format("{}", v);
}

std::vector<int64_t> unflatten(size_t i, const std::vector<int64_t>& shape) {
  if (shape.empty()) return {static_cast<int64_t>(i)};
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    int64_t extent = shape[d] > 0 ? shape[d] : 1;
    idx[d] = static_cast<int64_t>(i % extent);
    i /= extent;
  }
  return idx;
}

template <class F>
uint64_t ulpDist(F a, F b) {
  using U = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
  using S = std::conditional_t<sizeof(F) == 4, int32_t, int64_t>;
  if (a == b) return 0;
  if (std::isnan(a) || std::isnan(b)) return UINT64_MAX;
  auto key = [](F x) {
    S s = static_cast<S>(std::bit_cast<U>(x));
    return s < 0 ? std::numeric_limits<S>::min() - s : s;  // monotonic integer order
  };
  S ka = key(a), kb = key(b);
  return ka > kb ? static_cast<uint64_t>(ka) - static_cast<uint64_t>(kb)
                 : static_cast<uint64_t>(kb) - static_cast<uint64_t>(ka);
}

template <class T>
bool equalEnough(T got, T want, const Tolerance& tol) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
    if (got == want) return true;
    switch (tol.kind) {
      case CompareSpec::Kind::exact:
        return false;
      case CompareSpec::Kind::ulp:
        return ulpDist(got, want) <= static_cast<uint64_t>(tol.ulp);
      case CompareSpec::Kind::tolerance:
        if (std::isinf(got) || std::isinf(want)) return false;
        return std::fabs(static_cast<double>(got) - static_cast<double>(want)) <=
               tol.abs + tol.rel * std::fabs(static_cast<double>(want));
    }
    return false;
  } else {
    if (tol.kind == CompareSpec::Kind::tolerance)
      return std::fabs(static_cast<double>(got) - static_cast<double>(want)) <=
             tol.abs + tol.rel * std::fabs(static_cast<double>(want));
    return got == want;
  }
}

template <class T>
int64_t compareTyped(const std::string& name, const HostBuffer& got, const HostBuffer& want,
                     const Tolerance& tol, const std::vector<int64_t>& shape, size_t keep,
                     std::vector<Mismatch>& first) {
  auto g = got.as<T>();
  auto w = want.as<T>();
  int64_t count = 0;
  // Elements equal bit for bit are equal under every rule (NaN and poison included), so a block
  // that memcmp finds identical is skipped: most blocks of a passing case, at memory speed. An
  // integer tolerance with a negative bound is the exception (nothing meets it).
  constexpr size_t kBlock = 256;
  const bool skipIdentical = std::is_floating_point_v<T> ||
                             tol.kind != CompareSpec::Kind::tolerance ||
                             (tol.abs >= 0 && tol.rel >= 0);
  for (size_t i = 0; i < g.size(); ++i) {
    if (skipIdentical && i % kBlock == 0) {
      const size_t n = std::min(kBlock, g.size() - i);
      if (std::memcmp(&g[i], &w[i], n * sizeof(T)) == 0) {
        i += n - 1;
        continue;
      }
    }
    // The float poison is a NaN, which would equal a NaN the reference expects: an element that
    // compares equal is looked at again only when it is a NaN (checking every element for poison
    // would double the comparison's cost).
    bool equal = equalEnough(g[i], w[i], tol);
    if constexpr (std::is_floating_point_v<T>) {
      if (equal && std::isnan(g[i]) && isPoison(got, i) && !isPoison(want, i)) equal = false;
    }
    if (equal) continue;
    const bool unwritten = isPoison(got, i) && !isPoison(want, i);
    ++count;
    if (first.size() < keep)
      first.push_back(Mismatch{name, unflatten(i, shape), show(g[i]), show(w[i]), unwritten});
  }
  return count;
}

}  // namespace

CLH_VECTORIZE void poison(HostBuffer& buf) {
  visitElemType(buf.type(), [&]<class T>(TypeTag<T>) {
    if constexpr (std::is_same_v<T, float>)
      for (auto& v : buf.as<float>()) v = std::bit_cast<float>(kPoisonF32);
    else if constexpr (std::is_same_v<T, double>)
      for (auto& v : buf.as<double>()) v = std::bit_cast<double>(kPoisonF64);
    else
      std::memset(buf.data(), kPoisonByte, buf.bytes());
  });
}

bool isPoison(const HostBuffer& buf, size_t i) {
  const auto* bytes = static_cast<const uint8_t*>(buf.data());
  return visitElemType(buf.type(), [&]<class T>(TypeTag<T>) {
    if constexpr (std::is_same_v<T, float>) {
      uint32_t v;
      std::memcpy(&v, bytes + 4 * i, 4);
      return v == kPoisonF32;
    } else if constexpr (std::is_same_v<T, double>) {
      uint64_t v;
      std::memcpy(&v, bytes + 8 * i, 8);
      return v == kPoisonF64;
    } else {
      for (size_t b = 0; b < sizeof(T); ++b)
        if (bytes[sizeof(T) * i + b] != kPoisonByte) return false;
      return true;
    }
  });
}

uint64_t ulpDistance(float a, float b) {
  return ulpDist(a, b);
}
uint64_t ulpDistance(double a, double b) {
  return ulpDist(a, b);
}

int64_t compareBuffers(const std::string& name, const HostBuffer& got, const HostBuffer& want,
                       const Tolerance& tol, const std::vector<int64_t>& shape, size_t keep,
                       std::vector<Mismatch>& first) {
  if (got.type() != want.type() || got.count() != want.count())
    throw std::logic_error("compareBuffers: '" + name + "' differs in type or length");
  return visitElemType(got.type(), [&]<class T>(TypeTag<T>) {
    return compareTyped<T>(name, got, want, tol, shape, keep, first);
  });
}

}  // namespace clh
