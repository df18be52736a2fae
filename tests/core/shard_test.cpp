// Shards (core/shard.hpp): K/N read strictly, the test runners' variables as the default, and a
// split that covers every item once whatever order the items came in.
#include "core/shard.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

TEST(Shard, ReadsKOverNAndNothingElse) {
  int k = -1, n = -1;
  EXPECT_TRUE(clh::parseShard("0/1", k, n));
  EXPECT_TRUE(clh::parseShard("3/4", k, n));
  EXPECT_EQ(k, 3);
  EXPECT_EQ(n, 4);
  for (const char* bad : {"", "4/4", "-1/2", "1/0", "1/2x", "1", "a/b", "1 / 2 3"})
    EXPECT_FALSE(clh::parseShard(bad, k, n)) << bad;
}

TEST(Shard, TheOptionWinsOverTheEnvironmentWhichWinsOverTheWhole) {
  ::unsetenv("GTEST_SHARD_INDEX");
  ::unsetenv("GTEST_TOTAL_SHARDS");
  EXPECT_EQ(clh::shardFromOption("").count, 1);
  ::setenv("GTEST_SHARD_INDEX", "2", 1);
  ::setenv("GTEST_TOTAL_SHARDS", "3", 1);
  EXPECT_EQ(clh::shardFromOption("").index, 2);
  EXPECT_EQ(clh::shardFromOption("0/5").count, 5);
  ::setenv("GTEST_SHARD_INDEX", "3", 1);
  try {
    clh::shardFromOption("");
    ADD_FAILURE() << "GTEST_SHARD_INDEX=3 of 3 was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("GTEST_SHARD_INDEX"), std::string::npos) << e.what();
  }
  ::unsetenv("GTEST_SHARD_INDEX");
  ::unsetenv("GTEST_TOTAL_SHARDS");
  EXPECT_THROW(clh::shardFromOption("1/1"), std::invalid_argument);
}

TEST(Shard, ShardsCoverEveryItemOnceInAnyOrder) {
  const std::vector<std::string> items = {"e", "b", "a", "d", "c", "g", "f"};
  std::vector<std::string> reversed(items.rbegin(), items.rend());
  for (int n = 1; n <= 8; ++n) {
    std::multiset<std::string> seen;
    for (int k = 0; k < n; ++k) {
      auto key = [](const std::string& s) { return s; };
      const auto mine = clh::keepShard(items, clh::Shard{k, n}, key);
      const auto other = clh::keepShard(reversed, clh::Shard{k, n}, key);
      EXPECT_EQ(std::multiset<std::string>(mine.begin(), mine.end()),
                std::multiset<std::string>(other.begin(), other.end()))
          << k << "/" << n;
      EXPECT_LE(mine.size(), (items.size() + n - 1) / n);
      seen.insert(mine.begin(), mine.end());
    }
    EXPECT_EQ(seen, std::multiset<std::string>(items.begin(), items.end())) << "N=" << n;
  }
}

}  // namespace
