// The sanitizer's sizes drawn in threads at once, as a grading or checking parent plans them:
// each thread gets the sizes one thread alone gets (rapidcheck's generators keep global state).
#include "sanitize/case_sizes.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "cl/devices.hpp"
#include "core/spec.hpp"

namespace {

TEST(SanitizeSizes, ThreadsDrawingAtOnceEachGetWhatOneThreadAloneGets) {
  const clh::Spec spec =
      clh::loadSpec(std::string(CLH_AUDIT_DIR) + "/specs/vadd.yaml", CLHARNESS_SOURCE_ROOT);
  clh::DeviceInfo dev;
  dev.global_mem_size = uint64_t{1} << 32;
  dev.max_mem_alloc_size = uint64_t{1} << 30;
  std::vector<std::vector<clh::Sizes>> alone;
  for (uint64_t seed = 1; seed <= 8; ++seed)
    alone.push_back(clh::sanitize::chooseSanitizedSizes(spec, dev, seed).sizes);
  std::vector<int> differing(8, 0);
  std::vector<std::thread> threads;
  for (uint64_t t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 300; ++round)
        if (clh::sanitize::chooseSanitizedSizes(spec, dev, t + 1).sizes != alone[t]) ++differing[t];
    });
  for (auto& t : threads) t.join();
  for (uint64_t t = 0; t < 8; ++t) {
    EXPECT_EQ(alone[t].size(), 4u) << "seed " << t + 1;
    EXPECT_EQ(differing[t], 0) << "seed " << t + 1;
  }
}

}  // namespace
