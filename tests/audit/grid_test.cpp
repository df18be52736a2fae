// scan's grid budget (scan/grid.hpp): which smaller grid runs when the one given is too large for
// the simulator, and what the report says.
#include "scan/grid.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

using clh::scan::fewerGroups;
using clh::scan::gridItems;
using clh::scan::groupCounts;
using clh::scan::shrinkGrid;
using V = std::vector<size_t>;

TEST(ScanGrid, AGridWithinTheBudgetRunsAsGiven) {
  const auto c = shrinkGrid({10, 15, 24}, {2, 3, 4}, 4096);
  EXPECT_EQ(c.global, (V{10, 15, 24}));
  EXPECT_EQ(c.local, (V{2, 3, 4}));
  EXPECT_TRUE(c.note.empty());
  EXPECT_TRUE(shrinkGrid({1 << 20}, {64}, 0).note.empty());  // 0: no budget
}

TEST(ScanGrid, FewerWorkGroupsOfTheSameSizeAndTheNoteSaysSo) {
  const auto c = shrinkGrid({1 << 20}, {1024}, 4096);
  EXPECT_EQ(c.local, (V{1024}));
  EXPECT_EQ(c.global, (V{4096}));
  EXPECT_NE(c.note.find("1048576 in work-groups of 1024 (1024 work-groups)"), std::string::npos)
      << c.note;
  EXPECT_NE(c.note.find("budget of 4096"), std::string::npos) << c.note;
  EXPECT_NE(c.note.find("ran 4096 in work-groups of 1024 (4 work-groups)"), std::string::npos)
      << c.note;
}

TEST(ScanGrid, EveryDimensionKeepsAShareAndAtLeastTwoGroups) {
  // 5x6x7 groups of 2x3x4 (24 items each) into 1000 items: a group at a time where that loses the
  // smallest share, so no dimension is cut to its floor while the others stay whole.
  const auto c = shrinkGrid({10, 18, 28}, {2, 3, 4}, 1000);
  const V groups = groupCounts(c.global, c.local);
  EXPECT_LE(gridItems(c.global), 1000u);
  EXPECT_EQ(c.local, (V{2, 3, 4}));
  for (size_t g : groups) EXPECT_GE(g, 3u) << c.note;
  // A dimension of one group stays one; one of two stays two whatever the budget.
  const auto tight = shrinkGrid({64, 2}, {8, 1}, 8);
  EXPECT_EQ(groupCounts(tight.global, tight.local)[0], 2u) << tight.note;
  EXPECT_EQ(groupCounts(tight.global, tight.local)[1], 2u) << tight.note;
}

TEST(ScanGrid, ASmallerLastWorkGroupStaysLast) {
  // 1000 = 15 groups of 64 and one of 40: the smaller grid still ends with a group of 40.
  const auto c = shrinkGrid({1000}, {64}, 300);
  EXPECT_EQ(c.global[0] % 64, 40u) << c.note;
  EXPECT_LE(c.global[0], 300u);
  const auto f = fewerGroups({1000}, {64}, 2);
  EXPECT_EQ(f.global, (V{104}));  // 64 + 40
}

TEST(ScanGrid, AWorkGroupOverTheBudgetIsMadeSmallerAndSaid) {
  // GPUVerify's get_work_dim/work_dim_3: work-groups of 512x512x512, two a dimension.
  const auto c = shrinkGrid({1024, 1024, 1024}, {512, 512, 512}, 4096);
  EXPECT_LE(gridItems(c.global), 4096u);
  EXPECT_EQ(groupCounts(c.global, c.local), (V{2, 2, 2}));
  EXPECT_EQ(c.local, (V{8, 8, 8}));
  EXPECT_NE(c.note.find("get_local_size() differs"), std::string::npos) << c.note;
}

TEST(ScanGrid, AtMostSoManyGroupsADimensionAfterATimeout) {
  const auto two = fewerGroups({4096, 4}, {64, 4}, 2);
  EXPECT_EQ(two.global, (V{128, 4}));
  EXPECT_NE(two.note.find("ran past the time limit"), std::string::npos) << two.note;
  EXPECT_NE(two.note.find("ran 128x4 instead (2x1 work-groups"), std::string::npos) << two.note;
  EXPECT_EQ(fewerGroups({4096}, {64}, 1).global, (V{64}));
  EXPECT_TRUE(fewerGroups({128}, {64}, 2).note.empty());  // nothing to cut
  EXPECT_TRUE(fewerGroups({4096}, {64}, 0).note.empty());
}

}  // namespace
