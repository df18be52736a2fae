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

// mmul's N x N with N <= 16 fits one driver-like group: the shape for races between groups splits
// every dimension that allows it into two groups or more (issue 43).
TEST(WorkGroups, TheSeveralGroupsShapeSplitsEveryDimensionThatAllowsIt) {
  const std::vector<size_t> whole{16, 16};
  EXPECT_FALSE(clh::spansSeveralGroups(whole, clh::driverLikeLocalSizes(whole, 256, 1).front()));
  EXPECT_EQ(clh::severalGroupsLocalSize(whole, 256), (std::vector<size_t>{8, 8}));
  EXPECT_EQ(clh::severalGroupsLocalSize({12, 12}, 256), (std::vector<size_t>{6, 6}));
  EXPECT_EQ(clh::severalGroupsLocalSize({7, 7}, 256), (std::vector<size_t>{1, 1}));  // a prime
  EXPECT_EQ(clh::severalGroupsLocalSize({1, 6}, 256), (std::vector<size_t>{1, 3}));
  EXPECT_EQ(clh::severalGroupsLocalSize({64, 64}, 64), (std::vector<size_t>{32, 2}));  // the limit
  EXPECT_EQ(clh::severalGroupsLocalSize({16, 16}, 256, {4, 4}), (std::vector<size_t>{4, 4}));
  for (const auto& global : {whole, std::vector<size_t>{12, 12}, std::vector<size_t>{7, 7},
                             std::vector<size_t>{1, 6}, std::vector<size_t>{2}}) {
    EXPECT_TRUE(clh::spansSeveralGroups(global, clh::severalGroupsLocalSize(global, 256)));
  }
  EXPECT_TRUE(clh::spansSeveralGroups({1, 1}, {1, 1}));  // no dimension allows two
  EXPECT_FALSE(clh::spansSeveralGroups({16, 16}, {8, 16}));
}

}  // namespace
