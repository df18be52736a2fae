// Shards: a stable split of a command's work (specs, submissions, devices) into N parts, so that N
// jobs of a CI matrix or a Slurm array cover it exactly once (docs/ci.md).
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace clh {

struct Shard {
  int index = 0;  ///< K, 0 <= K < N
  int count = 1;  ///< N; 1: the whole
};

/// Reads "K/N" (0 <= K < N). False for anything else.
bool parseShard(const std::string& text, int& index, int& count);

/// The shard a command runs: `option` ("K/N") when given, else GTEST_SHARD_INDEX and
/// GTEST_TOTAL_SHARDS when both are set (as ctest and test runners set them), else the whole.
/// Throws std::invalid_argument naming the option (or the variables) when malformed.
Shard shardFromOption(const std::string& option, const std::string& option_name = "--shard");

/// The part of `items` shard `s` keeps: sorted by `key`, every N-th from the K-th, so that the
/// split does not depend on the order the items were found in. `key` gives a string.
template <class T, class Key>
std::vector<T> keepShard(std::vector<T> items, const Shard& s, Key key) {
  if (s.count <= 1) return items;
  std::stable_sort(items.begin(), items.end(),
                   [&](const T& a, const T& b) { return key(a) < key(b); });
  std::vector<T> mine;
  for (size_t i = 0; i < items.size(); ++i)
    if (static_cast<int>(i % static_cast<size_t>(s.count)) == s.index)
      mine.push_back(std::move(items[i]));
  return mine;
}

}  // namespace clh
