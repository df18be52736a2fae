// Tests of output comparison: exact / ulp / tolerance on floats (NaN, signed zeros, infinities,
// denormals), integers, mismatch indices in a buffer's shape, the kept-mismatch limit, poisoning
// and unwritten-element detection, and ulpDistance.
#include "core/compare.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

namespace clh {
namespace {

template <class T>
HostBuffer buffer(std::initializer_list<T> values) {
  HostBuffer b(elemTypeOf<T>(), values.size());
  std::copy(values.begin(), values.end(), b.as<T>().begin());
  return b;
}

Tolerance exact() {
  return {};
}
Tolerance ulps(int64_t n) {
  Tolerance t;
  t.kind = CompareSpec::Kind::ulp;
  t.ulp = n;
  return t;
}
Tolerance within(double abs, double rel) {
  Tolerance t;
  t.kind = CompareSpec::Kind::tolerance;
  t.abs = abs;
  t.rel = rel;
  return t;
}

// Mismatch count of comparing one element pair.
template <class T>
int64_t mismatches(T got, T want, const Tolerance& tol) {
  std::vector<Mismatch> first;
  return compareBuffers("x", buffer<T>({got}), buffer<T>({want}), tol, {}, 4, first);
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kDenormMin = std::numeric_limits<float>::denorm_min();
constexpr float kMax = std::numeric_limits<float>::max();
const float kOneUp = std::nextafter(1.0f, 2.0f);

TEST(CompareExact, Floats) {
  EXPECT_EQ(mismatches(1.5f, 1.5f, exact()), 0);
  EXPECT_EQ(mismatches(kOneUp, 1.0f, exact()), 1);
  EXPECT_EQ(mismatches(0.0f, -0.0f, exact()), 0);  // +0 == -0
  EXPECT_EQ(mismatches(kInf, kInf, exact()), 0);
  EXPECT_EQ(mismatches(-kInf, kInf, exact()), 1);
  EXPECT_EQ(mismatches(kMax, kInf, exact()), 1);
  EXPECT_EQ(mismatches(kNaN, kNaN, exact()), 0);  // the same NaN is the same result
  EXPECT_EQ(mismatches(kNaN, 1.0f, exact()), 1);
  EXPECT_EQ(mismatches(1.0f, kNaN, exact()), 1);
  EXPECT_EQ(mismatches(kDenormMin, 0.0f, exact()), 1);  // no flush-to-zero leniency
  EXPECT_EQ(mismatches(kDenormMin, kDenormMin, exact()), 0);
  EXPECT_EQ(mismatches(1.0, std::nextafter(1.0, 2.0), exact()), 1);
}

TEST(CompareUlp, Floats) {
  EXPECT_EQ(mismatches(kOneUp, 1.0f, ulps(0)), 1);
  EXPECT_EQ(mismatches(kOneUp, 1.0f, ulps(1)), 0);
  EXPECT_EQ(mismatches(std::nextafter(kOneUp, 2.0f), 1.0f, ulps(1)), 1);
  EXPECT_EQ(mismatches(std::nextafter(kOneUp, 2.0f), 1.0f, ulps(2)), 0);
  // Across zero: -denorm_min, -0 == +0, +denorm_min are two steps apart.
  EXPECT_EQ(mismatches(-kDenormMin, kDenormMin, ulps(1)), 1);
  EXPECT_EQ(mismatches(-kDenormMin, kDenormMin, ulps(2)), 0);
  EXPECT_EQ(mismatches(-0.0f, 0.0f, ulps(0)), 0);
  EXPECT_EQ(mismatches(kNaN, 1.0f, ulps(1000)), 1);
  EXPECT_EQ(mismatches(1.0f, kNaN, ulps(1000)), 1);
  EXPECT_EQ(mismatches(-kInf, kInf, ulps(1000)), 1);
  EXPECT_EQ(mismatches(std::nextafter(1.0, 2.0), 1.0, ulps(1)), 0);
  EXPECT_EQ(mismatches(std::nextafter(std::nextafter(1.0, 2.0), 2.0), 1.0, ulps(1)), 1);
}

TEST(CompareTolerance, AbsoluteRelativeAndBoth) {
  EXPECT_EQ(mismatches(1.05f, 1.0f, within(0.1, 0)), 0);
  EXPECT_EQ(mismatches(1.2f, 1.0f, within(0.1, 0)), 1);
  EXPECT_EQ(mismatches(0.8f, 1.0f, within(0.1, 0)), 1);  // both directions
  EXPECT_EQ(mismatches(100.9f, 100.0f, within(0, 0.01)), 0);
  EXPECT_EQ(mismatches(101.5f, 100.0f, within(0, 0.01)), 1);
  EXPECT_EQ(mismatches(-101.5f, -100.0f, within(0, 0.01)), 1);  // relative to |want|
  // |got - want| <= abs + rel * |want|: 1 + 0.01 * 100 = 2
  EXPECT_EQ(mismatches(102.0f, 100.0f, within(1, 0.01)), 0);
  EXPECT_EQ(mismatches(102.25f, 100.0f, within(1, 0.01)), 1);
  EXPECT_EQ(mismatches(0.0f, 0.0f, within(0, 0)), 0);
  EXPECT_EQ(mismatches(2.0, 1.0, within(0.5, 0.5)), 0);  // doubles
}

TEST(CompareTolerance, InfinitiesNaNsAndDenormals) {
  EXPECT_EQ(mismatches(kInf, kInf, within(0, 0)), 0);
  EXPECT_EQ(mismatches(kMax, kInf, within(1e300, 1e300)), 1);  // Inf only equals itself
  EXPECT_EQ(mismatches(kInf, kMax, within(1e300, 1e300)), 1);
  EXPECT_EQ(mismatches(-kInf, kInf, within(1e300, 0)), 1);
  EXPECT_EQ(mismatches(kNaN, 1.0f, within(1e300, 1e300)), 1);
  EXPECT_EQ(mismatches(1.0f, kNaN, within(1e300, 1e300)), 1);
  EXPECT_EQ(mismatches(kNaN, kNaN, within(0, 0)), 0);          // NaN only equals NaN
  EXPECT_EQ(mismatches(kDenormMin, 0.0f, within(0, 0.5)), 1);  // rel of 0 allows nothing
  EXPECT_EQ(mismatches(kDenormMin, 0.0f, within(1e-40, 0)), 0);
  EXPECT_EQ(mismatches(-kDenormMin, kDenormMin, within(1e-40, 0)), 0);
}

TEST(CompareIntegers, ExactAndTolerance) {
  EXPECT_EQ(mismatches<int32_t>(7, 7, exact()), 0);
  EXPECT_EQ(mismatches<int32_t>(-5, 7, exact()), 1);
  EXPECT_EQ(mismatches<uint32_t>(0xFFFFFFFFu, 0u, exact()), 1);
  EXPECT_EQ(mismatches<int64_t>(INT64_MIN, INT64_MIN, exact()), 0);
  EXPECT_EQ(mismatches<uint64_t>(UINT64_MAX, UINT64_MAX - 1, exact()), 1);
  EXPECT_EQ(mismatches<int8_t>(-128, 127, exact()), 1);
  EXPECT_EQ(mismatches<int32_t>(6, 5, within(1, 0)), 0);
  EXPECT_EQ(mismatches<int32_t>(4, 5, within(1, 0)), 0);
  EXPECT_EQ(mismatches<int32_t>(7, 5, within(1, 0)), 1);
  EXPECT_EQ(mismatches<uint16_t>(110, 100, within(0, 0.1)), 0);
  EXPECT_EQ(mismatches<uint16_t>(111, 100, within(0, 0.1)), 1);
}

TEST(CompareMismatches, ValuesArePrintedAsNumbers) {
  std::vector<Mismatch> first;
  compareBuffers("u8", buffer<uint8_t>({200}), buffer<uint8_t>({65}), exact(), {}, 4, first);
  compareBuffers("i8", buffer<int8_t>({-128}), buffer<int8_t>({10}), exact(), {}, 4, first);
  compareBuffers("u64", buffer<uint64_t>({UINT64_MAX}), buffer<uint64_t>({0}), exact(), {}, 4,
                 first);
  compareBuffers("f", buffer<float>({0.1f}), buffer<float>({-2.5f}), exact(), {}, 4, first);
  ASSERT_EQ(first.size(), 4u);
  EXPECT_EQ(first[0].buffer, "u8");
  EXPECT_EQ(first[0].got, "200");  // not the character
  EXPECT_EQ(first[0].want, "65");  // not "A"
  EXPECT_EQ(first[1].got, "-128");
  EXPECT_EQ(first[2].got, "18446744073709551615");
  EXPECT_EQ(first[3].got, "0.100000001");  // enough digits to tell neighbouring floats apart
  EXPECT_EQ(first[3].want, "-2.5");
  for (const auto& m : first) EXPECT_FALSE(m.unwritten);
}

TEST(CompareMismatches, NeighbouringFloatsPrintDifferently) {
  std::vector<Mismatch> first;
  compareBuffers("f", buffer<float>({kOneUp}), buffer<float>({1.0f}), exact(), {}, 4, first);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_NE(first[0].got, first[0].want);
}

// BUG (harness/core/compare.cpp, show<T>): doubles are printed with "{:.9g}", so two doubles that
// differ beyond the 9th significant digit print the same ("got 1, want 1"). Doubles need 17
// significant digits to round-trip.
TEST(CompareMismatches, NeighbouringDoublesPrintDifferently) {
  std::vector<Mismatch> first;
  compareBuffers("d", buffer<double>({1.0 + 0x1p-40}), buffer<double>({1.0}), exact(), {}, 4,
                 first);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_NE(first[0].got, first[0].want);
}

TEST(CompareMismatches, IndicesFollowTheShapeRowMajor) {
  HostBuffer got(ElemType::i32, 24), want(ElemType::i32, 24);
  std::fill(got.as<int32_t>().begin(), got.as<int32_t>().end(), 0);
  std::fill(want.as<int32_t>().begin(), want.as<int32_t>().end(), 0);
  got.as<int32_t>()[7] = 1;
  got.as<int32_t>()[23] = 1;

  std::vector<Mismatch> flat, matrix, cube;
  EXPECT_EQ(compareBuffers("g", got, want, exact(), {}, 8, flat), 2);
  EXPECT_EQ(compareBuffers("g", got, want, exact(), {6, 4}, 8, matrix), 2);
  EXPECT_EQ(compareBuffers("g", got, want, exact(), {2, 3, 4}, 8, cube), 2);
  ASSERT_EQ(flat.size(), 2u);
  ASSERT_EQ(matrix.size(), 2u);
  ASSERT_EQ(cube.size(), 2u);
  EXPECT_EQ(flat[0].index, (std::vector<int64_t>{7}));
  EXPECT_EQ(flat[1].index, (std::vector<int64_t>{23}));
  EXPECT_EQ(matrix[0].index, (std::vector<int64_t>{1, 3}));  // 7 = 1*4 + 3
  EXPECT_EQ(matrix[1].index, (std::vector<int64_t>{5, 3}));
  EXPECT_EQ(cube[0].index, (std::vector<int64_t>{0, 1, 3}));  // 7 = 0*12 + 1*4 + 3
  EXPECT_EQ(cube[1].index, (std::vector<int64_t>{1, 2, 3}));
}

TEST(CompareMismatches, CountsAllKeepsTheFirstFew) {
  HostBuffer got(ElemType::f32, 10), want(ElemType::f32, 10);
  for (size_t i = 0; i < 10; ++i) {
    got.as<float>()[i] = static_cast<float>(i);
    want.as<float>()[i] = i % 2 ? static_cast<float>(i) : -1.0f;  // even indices differ
  }
  std::vector<Mismatch> first;
  EXPECT_EQ(compareBuffers("v", got, want, exact(), {}, 3, first), 5);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[0].index, (std::vector<int64_t>{0}));
  EXPECT_EQ(first[1].index, (std::vector<int64_t>{2}));
  EXPECT_EQ(first[2].index, (std::vector<int64_t>{4}));
  EXPECT_EQ(first[2].got, "4");
  EXPECT_EQ(first[2].want, "-1");
  // `keep` bounds the list across calls: a second buffer adds nothing once it is full.
  EXPECT_EQ(compareBuffers("w", got, want, exact(), {}, 3, first), 5);
  EXPECT_EQ(first.size(), 3u);
  std::vector<Mismatch> none;
  EXPECT_EQ(compareBuffers("v", got, want, exact(), {}, 0, none), 5);
  EXPECT_TRUE(none.empty());
}

// Long buffers are compared block by block, identical blocks skipped: mismatches at the edges of
// blocks, a +0 against a -0 (equal, not identical), a NaN against a NaN and an unwritten element
// among identical ones are all counted and kept as element by element, under every rule.
TEST(CompareMismatches, LongBuffersCountEveryMismatch) {
  const size_t n = 1000;
  HostBuffer want(ElemType::f32, n);
  for (size_t i = 0; i < n; ++i) want.as<float>()[i] = 0.5f * static_cast<float>(i);
  want.as<float>()[300] = -0.0f;
  want.as<float>()[600] = kNaN;
  HostBuffer got(want);
  for (size_t i : {0, 255, 256, 511, 999}) got.as<float>()[i] += 1.0f;
  got.as<float>()[300] = 0.0f;                               // equal to -0
  got.as<float>()[700] = std::bit_cast<float>(0x7FA5A5A5u);  // the poison: never written
  const std::vector<int64_t> at = {0, 255, 256, 511, 700, 999};
  for (const Tolerance& tol : {exact(), ulps(0), within(0, 0)}) {
    std::vector<Mismatch> first;
    EXPECT_EQ(compareBuffers("c", got, want, tol, {}, 8, first), 6);
    ASSERT_EQ(first.size(), at.size());
    for (size_t k = 0; k < at.size(); ++k) {
      EXPECT_EQ(first[k].index, (std::vector<int64_t>{at[k]}));
      EXPECT_EQ(first[k].unwritten, at[k] == 700);
    }
  }
  HostBuffer igot(ElemType::i32, 600), iwant(ElemType::i32, 600);
  for (size_t i = 0; i < 600; ++i) igot.as<int32_t>()[i] = iwant.as<int32_t>()[i] = int32_t(i);
  igot.as<int32_t>()[257] = 0;
  std::vector<Mismatch> first;
  EXPECT_EQ(compareBuffers("i", igot, iwant, exact(), {}, 8, first), 1);
  EXPECT_EQ(compareBuffers("i", iwant, iwant, within(-1, 0), {}, 8, first), 600);  // none meets it
}

TEST(CompareMismatches, DifferentTypeOrLengthIsALogicError) {
  std::vector<Mismatch> first;
  EXPECT_THROW(compareBuffers("x", HostBuffer(ElemType::f32, 3), HostBuffer(ElemType::f32, 4),
                              exact(), {}, 1, first),
               std::logic_error);
  EXPECT_THROW(compareBuffers("x", HostBuffer(ElemType::f32, 3), HostBuffer(ElemType::i32, 3),
                              exact(), {}, 1, first),
               std::logic_error);
}

TEST(ComparePoison, EveryTypeIsPoisonedAndDetected) {
  for (ElemType t : {ElemType::i8, ElemType::u8, ElemType::i16, ElemType::u16, ElemType::i32,
                     ElemType::u32, ElemType::i64, ElemType::u64, ElemType::f32, ElemType::f64}) {
    HostBuffer b(t, 5);
    std::memset(b.data(), 0, b.bytes());
    for (size_t i = 0; i < 5; ++i) EXPECT_FALSE(isPoison(b, i)) << toString(t);
    poison(b);
    for (size_t i = 0; i < 5; ++i) EXPECT_TRUE(isPoison(b, i)) << toString(t) << " " << i;
    // Overwrite element 2 with a value: only it stops being poison.
    std::memset(static_cast<char*>(b.data()) + 2 * sizeOf(t), 0x01, sizeOf(t));
    EXPECT_FALSE(isPoison(b, 2)) << toString(t);
    EXPECT_TRUE(isPoison(b, 1)) << toString(t);
    EXPECT_TRUE(isPoison(b, 3)) << toString(t);
  }
}

TEST(ComparePoison, FloatPoisonIsANaNNoArithmeticProduces) {
  HostBuffer f(ElemType::f32, 1), d(ElemType::f64, 1);
  poison(f);
  poison(d);
  EXPECT_TRUE(std::isnan(f.as<float>()[0]));
  EXPECT_TRUE(std::isnan(d.as<double>()[0]));
  // The NaN a kernel computes (0/0, sqrt(-1): the default quiet NaN) is not poison.
  f.as<float>()[0] = kNaN;
  d.as<double>()[0] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(isPoison(f, 0));
  EXPECT_FALSE(isPoison(d, 0));
}

TEST(ComparePoison, UnwrittenElementsAreFlagged) {
  HostBuffer got(ElemType::f32, 4), want = buffer<float>({1, 2, 3, 4});
  poison(got);
  got.as<float>()[1] = 2.0f;  // written, right
  got.as<float>()[2] = 9.0f;  // written, wrong
  std::vector<Mismatch> first;
  EXPECT_EQ(compareBuffers("c", got, want, exact(), {}, 8, first), 3);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_TRUE(first[0].unwritten);
  EXPECT_EQ(first[0].index, (std::vector<int64_t>{0}));
  EXPECT_FALSE(first[1].unwritten);
  EXPECT_EQ(first[1].got, "9");
  EXPECT_TRUE(first[2].unwritten);

  HostBuffer igot(ElemType::i32, 2), iwant = buffer<int32_t>({0, 0});
  poison(igot);
  std::vector<Mismatch> ifirst;
  EXPECT_EQ(compareBuffers("i", igot, iwant, exact(), {}, 8, ifirst), 2);
  ASSERT_EQ(ifirst.size(), 2u);
  EXPECT_TRUE(ifirst[0].unwritten);
  EXPECT_TRUE(ifirst[1].unwritten);
}

// BUG (harness/core/compare.cpp, equalEnough): any NaN equals any NaN, so an element the kernel
// never wrote (the poison is a NaN) passes wherever the reference's answer is NaN (0/0, sqrt(-1),
// log(-1), ...). The unwritten element goes unreported under every comparison kind.
TEST(ComparePoison, PoisonIsNeverEqualToANaNResult) {
  HostBuffer got(ElemType::f32, 1), want = buffer<float>({kNaN});
  poison(got);
  for (const Tolerance& tol : {exact(), ulps(4), within(1, 1)}) {
    std::vector<Mismatch> first;
    EXPECT_EQ(compareBuffers("c", got, want, tol, {}, 8, first), 1);
    ASSERT_EQ(first.size(), 1u);
    EXPECT_TRUE(first[0].unwritten);
  }
}

TEST(UlpDistance, Floats) {
  EXPECT_EQ(ulpDistance(1.0f, 1.0f), 0u);
  EXPECT_EQ(ulpDistance(1.0f, kOneUp), 1u);
  EXPECT_EQ(ulpDistance(kOneUp, 1.0f), 1u);  // symmetric
  EXPECT_EQ(ulpDistance(-1.0f, std::nextafter(-1.0f, -2.0f)), 1u);
  EXPECT_EQ(ulpDistance(1.0f, 2.0f), 1u << 23);  // one binade of float
  EXPECT_EQ(ulpDistance(0.0f, -0.0f), 0u);
  EXPECT_EQ(ulpDistance(0.0f, kDenormMin), 1u);
  EXPECT_EQ(ulpDistance(-0.0f, kDenormMin), 1u);
  EXPECT_EQ(ulpDistance(-kDenormMin, kDenormMin), 2u);  // across zero
  EXPECT_EQ(ulpDistance(-1.0f, 1.0f), 2u * std::bit_cast<uint32_t>(1.0f));
  EXPECT_EQ(ulpDistance(kMax, kInf), 1u);
  EXPECT_EQ(ulpDistance(-kMax, kMax), 2u * 0x7F7FFFFFu);
  EXPECT_EQ(ulpDistance(kNaN, 1.0f), UINT64_MAX);
  EXPECT_EQ(ulpDistance(kNaN, kNaN), UINT64_MAX);
}

TEST(UlpDistance, Doubles) {
  const double dmin = std::numeric_limits<double>::denorm_min();
  const double dmax = std::numeric_limits<double>::max();
  EXPECT_EQ(ulpDistance(1.0, std::nextafter(1.0, 0.0)), 1u);
  EXPECT_EQ(ulpDistance(1.0, 2.0), uint64_t{1} << 52);
  EXPECT_EQ(ulpDistance(-dmin, dmin), 2u);
  EXPECT_EQ(ulpDistance(-0.0, 0.0), 0u);
  EXPECT_EQ(ulpDistance(-dmax, dmax), 2u * 0x7FEFFFFFFFFFFFFFull);
  EXPECT_EQ(ulpDistance(std::numeric_limits<double>::quiet_NaN(), 0.0), UINT64_MAX);
}

}  // namespace
}  // namespace clh
