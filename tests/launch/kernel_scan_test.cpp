// Unit tests of the kernel scan that decides whether the launch family may run a kernel under
// local sizes of its own: every work-group feature is seen, comments and strings never are.
#include "launch/kernel_scan.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using clh::launch::stripCommentsAndStrings;
using clh::launch::workGroupFeatures;

namespace {

std::string catalogKernel(const std::string& path) {
  std::ifstream in(std::string(CLHARNESS_SOURCE_ROOT) + "/" + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(KernelScan, AGlobalIdKernelUsesNoWorkGroupFeature) {
  EXPECT_TRUE(workGroupFeatures("__kernel void k(__global float* a) {\n"
                                "  a[get_global_id(0)] *= 2.0f; // uses get_global_size too\n"
                                "  int n = get_global_size(0);\n}")
                  .empty());
}

TEST(KernelScan, EveryFeatureIsListedOnceInOrder) {
  const std::string src =
      "__kernel __attribute__((reqd_work_group_size(8,1,1)))\n"
      "void k(__global float* a, local float* tile) {\n"
      "  __local int flag;\n"
      "  tile[get_local_id(0)] = a[get_group_id(0)];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  a[0] = work_group_reduce_add(tile[0]) + get_local_id(1) + sub_group_broadcast(1, 0);\n"
      "  event_t e = async_work_group_copy(tile, a, 4, 0); wait_group_events(1, &e);\n"
      "}\n";
  const std::vector<std::string> want = {"reqd_work_group_size",
                                         "__local",
                                         "get_local_id",
                                         "get_group_id",
                                         "barrier",
                                         "work_group_reduce_add",
                                         "sub_group_broadcast",
                                         "async_work_group_copy",
                                         "wait_group_events"};
  EXPECT_EQ(workGroupFeatures(src), want);
}

TEST(KernelScan, CommentsStringsAndLongerNamesAreNotFeatures) {
  const std::string src =
      "// get_local_id(0) in a comment\n"
      "/* barrier(CLK_LOCAL_MEM_FENCE);\n   __local */\n"
      "__kernel void k(__global int* a) {\n"
      "  const char* s = \"get_group_id\"; char c = 'l';\n"
      "  int my_get_local_id = 1, localx = 2, barrier_count = 3, work_group_ = 4;\n"
      "  a[get_global_id(0)] = my_get_local_id + localx + barrier_count + work_group_ + 1;\n}\n";
  EXPECT_TRUE(workGroupFeatures(src).empty()) << ::testing::PrintToString(workGroupFeatures(src));
}

TEST(KernelScan, StrippingKeepsLineBreaksAndLength) {
  const std::string src = "a /* x\ny */ b // z\n\"s\\\"t\" c";
  const std::string out = stripCommentsAndStrings(src);
  EXPECT_EQ(out.size(), src.size());
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2);
  EXPECT_EQ(out.find('x'), std::string::npos);
  EXPECT_EQ(out.find('t'), std::string::npos);
  EXPECT_NE(out.find('c'), std::string::npos);
}

TEST(KernelScan, CatalogKernelsAreClassifiedAsTheirLaunchesNeed) {
  EXPECT_TRUE(workGroupFeatures(catalogKernel("kernels/handson/vadd.cl")).empty());
  EXPECT_TRUE(workGroupFeatures(catalogKernel("kernels/handson/mmul_elem.cl")).empty());
  const auto block = workGroupFeatures(catalogKernel("kernels/handson/mmul_block.cl"));
  EXPECT_NE(std::find(block.begin(), block.end(), "get_local_size"), block.end());
  EXPECT_NE(std::find(block.begin(), block.end(), "__local"), block.end());
  const auto pi = workGroupFeatures(catalogKernel("kernels/handson/pi.cl"));
  EXPECT_NE(std::find(pi.begin(), pi.end(), "get_group_id"), pi.end());
}
