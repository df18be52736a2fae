// The work-group shapes the simulator gives a launch whose spec leaves the local size to the
// driver: each divides the global size and fits the limit, never 1x1 while a larger one fits.
#include "sim/work_groups.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace {

using Shape = std::vector<size_t>;

bool has(const std::vector<Shape>& shapes, const Shape& s) {
  return std::find(shapes.begin(), shapes.end(), s) != shapes.end();
}

void expectValid(const std::vector<Shape>& shapes, const Shape& global, size_t limit) {
  ASSERT_FALSE(shapes.empty());
  for (const auto& s : shapes) {
    ASSERT_EQ(s.size(), global.size());
    size_t items = 1;
    for (size_t d = 0; d < s.size(); ++d) {
      EXPECT_EQ(global[d] % s[d], 0u) << clh::formatShape(s);
      items *= s[d];
    }
    EXPECT_LE(items, limit) << clh::formatShape(s);
  }
}

TEST(WorkGroups, OneDimensionGetsTheLargestGroupAndAnOddOne) {
  const auto shapes = clh::driverLikeLocalSizes({48}, 1024, 1);
  expectValid(shapes, {48}, 1024);
  EXPECT_TRUE(has(shapes, {48}));
  EXPECT_TRUE(has(shapes, {3}));  // the odd shape
  EXPECT_FALSE(has(shapes, {1}));
}

TEST(WorkGroups, APrimeGlobalSizeWithinTheLimitIsOneGroup) {
  EXPECT_EQ(clh::driverLikeLocalSizes({17}, 1024, 1), (std::vector<Shape>{{17}}));
}

TEST(WorkGroups, OnlyOneWorkItemGroupsWhenNothingLargerDivides) {
  // 2053 is prime and over the limit: the caller must say it could not look inside groups.
  EXPECT_EQ(clh::driverLikeLocalSizes({2053}, 1024, 1), (std::vector<Shape>{{1}}));
}

TEST(WorkGroups, TwoDimensionsGetRowsABalancedShapeAndThePreferredMultiple) {
  const auto shapes = clh::driverLikeLocalSizes({64, 64}, 1024, 32);
  expectValid(shapes, {64, 64}, 1024);
  EXPECT_TRUE(has(shapes, {64, 16}));  // rows first
  EXPECT_TRUE(has(shapes, {16, 16}));  // balanced within 256
  EXPECT_TRUE(has(shapes, {64, 1}));   // the largest multiple of 32 within 256
}

TEST(WorkGroups, TheKernelsOwnLimitAndTheDevicesPerDimensionLimitHold) {
  const auto shapes = clh::driverLikeLocalSizes({64, 64}, 128, 1, {16, 4, 1});
  expectValid(shapes, {64, 64}, 128);
  for (const auto& s : shapes) {
    EXPECT_LE(s[0], 16u);
    EXPECT_LE(s[1], 4u);
  }
}

TEST(WorkGroups, TheSameKeyPicksTheSameShape) {
  const auto shapes = clh::driverLikeLocalSizes({48}, 1024, 1);
  EXPECT_EQ(clh::pickLocalSize(shapes, 42), clh::pickLocalSize(shapes, 42));
  bool differs = false;  // and several keys reach more than one shape
  for (uint64_t k = 0; k < 16; ++k)
    differs = differs || clh::pickLocalSize(shapes, k) != clh::pickLocalSize(shapes, 0);
  EXPECT_TRUE(differs);
}

}  // namespace
