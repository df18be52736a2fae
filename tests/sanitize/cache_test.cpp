// The rewrite cache (CLHARNESS_REWRITE_CACHE): an answer is kept under a name made of what the
// rewrite reads, read back instead of running the helper, and never used for another input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sanitize/helper.hpp"

namespace {

namespace fs = std::filesystem;

struct RewriteCache : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("clh-rewrite-cache-" + std::to_string(::getpid()));
  fs::path file = dir / "k.cl";
  void SetUp() override {
    fs::create_directories(dir);
    std::ofstream(file) << "__kernel void k(__global int* a) { a[get_global_id(0)] = 1; }\n";
    ::setenv(clh::sanitize::kRewriteCacheVariable, (dir / "cache").c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv(clh::sanitize::kRewriteCacheVariable);
    fs::remove_all(dir);
  }
  std::vector<fs::path> entries() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir / "cache")) out.push_back(e.path());
    return out;
  }
};

TEST_F(RewriteCache, AnAnswerIsKeptAndReadBackInsteadOfRunningTheHelper) {
  const auto first = clh::sanitize::instrumentInHelper(file.string(), "k.cl", "k", "");
  ASSERT_TRUE(first.error.empty()) << first.error;
  ASSERT_EQ(first.sites.size(), 1u);
  const auto kept = entries();
  ASSERT_EQ(kept.size(), 1u);
  // Mark the kept answer: a second call that gives the mark back read the cache.
  nlohmann::json j;
  std::ifstream(kept[0]) >> j;
  j["source"] = "// from the cache\n" + j["source"].get<std::string>();
  std::ofstream(kept[0]) << j.dump();
  const auto second = clh::sanitize::instrumentInHelper(file.string(), "k.cl", "k", "");
  EXPECT_EQ(second.source.rfind("// from the cache\n", 0), 0u);
  EXPECT_EQ(second.sites.size(), 1u);
}

TEST_F(RewriteCache, AnotherTextKernelOrOptionIsAnotherEntry) {
  clh::sanitize::instrumentInHelper(file.string(), "k.cl", "k", "");
  clh::sanitize::instrumentInHelper(file.string(), "k.cl", "k", "-DX=1");
  clh::sanitize::instrumentInHelper(file.string(), "other.cl", "k", "");
  std::ofstream(file) << "__kernel void k(__global int* a) { a[0] = 2; a[1] = 3; }\n";
  const auto changed = clh::sanitize::instrumentInHelper(file.string(), "k.cl", "k", "");
  EXPECT_EQ(changed.sites.size(), 2u);  // the new text's rewrite, not the first one's
  EXPECT_EQ(entries().size(), 4u);
}

}  // namespace
