// Tests of host buffer storage: a large block freed by one buffer serves the next one that fits
// (at most twice its size), small ones and moved-from buffers behave as before, and copies are
// copies.
#include "core/hostbuffer.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace clh {
namespace {

TEST(HostBufferStorage, ALargeBlockServesTheNextBufferThatFits) {
  const size_t n = 1 << 20;  // 4 MiB of floats
  const void* first = nullptr;
  {
    HostBuffer a(ElemType::f32, n);
    first = a.data();
    std::iota(a.as<float>().begin(), a.as<float>().end(), 0.0f);
  }
  {
    HostBuffer b(ElemType::i32, n - 100);  // smaller, same block
    EXPECT_EQ(b.data(), first);
    EXPECT_EQ(b.count(), n - 100);
    HostBuffer c(ElemType::f32, n);  // the block is taken: a new one
    EXPECT_NE(c.data(), first);
  }
  {
    HostBuffer tiny(ElemType::f32, n / 4);  // a quarter: not given the 4 MiB blocks
    EXPECT_NE(tiny.data(), first);
  }
  HostBuffer again(ElemType::f32, n);
  EXPECT_TRUE(again.data() != nullptr);
}

TEST(HostBufferStorage, CopiesAndMovesKeepTheirContents) {
  HostBuffer a(ElemType::f64, 100000);
  std::iota(a.as<double>().begin(), a.as<double>().end(), 1.0);
  HostBuffer b(a);
  EXPECT_NE(b.data(), a.data());
  EXPECT_EQ(b.as<double>()[99999], 100000.0);
  HostBuffer c(std::move(a));
  EXPECT_EQ(c.as<double>()[0], 1.0);
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): moved from, nothing held
  HostBuffer small(ElemType::u8, 3);
  small = c;
  EXPECT_EQ(small.count(), 100000u);
  EXPECT_EQ(small.as<double>()[5], 6.0);
}

}  // namespace
}  // namespace clh
