// Reading a shard from "K/N" or the test runners' environment variables.
#include "core/shard.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace clh {

bool parseShard(const std::string& text, int& index, int& count) {
  int k = -1, n = 0;
  char end = 0;
  if (std::sscanf(text.c_str(), "%d/%d%c", &k, &n, &end) != 2 || n < 1 || k < 0 || k >= n)
    return false;
  index = k;
  count = n;
  return true;
}

Shard shardFromOption(const std::string& option, const std::string& option_name) {
  Shard s;
  std::string text = option, from = option_name;
  const char* index = std::getenv("GTEST_SHARD_INDEX");
  const char* total = std::getenv("GTEST_TOTAL_SHARDS");
  if (text.empty() && index && total) {
    text = std::string(index) + "/" + total;
    from = "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS";
  }
  if (text.empty()) return s;
  if (!parseShard(text, s.index, s.count))
    throw std::invalid_argument(from + " '" + text + "': expected K/N with 0 <= K < N");
  return s;
}

}  // namespace clh
