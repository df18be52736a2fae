// Unit tests of the launch-shape generator: each family breaks the rule it is named for, shapes
// meant to run stay within the caps, and one seed gives one sequence. No device is involved.
#include "launch/shapes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace clh::launch;

namespace {

DeviceLimits limits() {
  DeviceLimits d;
  d.opencl_major = 1;
  d.opencl_minor = 2;
  d.max_work_group_size = 1024;
  d.max_work_item_sizes = {1024, 1024, 64};
  d.local_mem_size = 32768;
  return d;
}

std::vector<LaunchShape> draw(const DeviceLimits& d, const KernelLimits& k, const ShapeOptions& o,
                              int n, uint64_t seed) {
  auto gen = genLaunchShape(d, k, o);
  rc::Random random(seed);
  std::vector<LaunchShape> out;
  for (int i = 0; i < n; ++i) out.push_back(gen(random.split()).value());
  return out;
}

bool shapeHasRule(const Prediction& p, const std::string& id) {
  return std::any_of(p.rules.begin(), p.rules.end(),
                     [&](const AppliedRule& r) { return r.id == id; });
}

size_t items(const LaunchConfig& c) {
  size_t n = 1;
  for (unsigned i = 0; i < c.work_dim; ++i) n *= c.global[i];
  return n;
}

}  // namespace

TEST(ShapeGenerator, EachFamilyBreaksItsRule) {
  KernelLimits k{512, 0, {0, 0, 0}};
  ShapeOptions o;
  o.offsets = o.dynamic_local = o.zero_local = true;
  o.max_global_items = 4096;
  std::map<std::string, int> seen;
  for (const auto& s : draw(limits(), k, o, 2000, 7)) {
    ++seen[s.kind];
    auto p = predictLaunch(limits(), k, ProgramOptions{}, s.config);
    const auto& kind = s.kind;
    SCOPED_TRACE(kind + " " + s.config.toString());
    if (kind == "valid" || kind == "null_local" || kind == "offset") {
      EXPECT_TRUE(p.mustSucceed()) << p.allowedToString();
      EXPECT_LE(items(s.config), o.max_global_items);
    } else if (kind == "over_device_max") {
      EXPECT_TRUE(shapeHasRule(p, "local.over_device_max"));
    } else if (kind == "over_kernel_max") {
      EXPECT_TRUE(shapeHasRule(p, "local.over_kernel_max"));
      EXPECT_FALSE(shapeHasRule(p, "local.over_device_max"));
    } else if (kind == "over_item_size") {
      EXPECT_TRUE(shapeHasRule(p, "local.over_item_size"));
    } else if (kind == "not_dividing") {
      // Needs a local size of 2 or more somewhere; with 1x1x1 the shape is valid instead.
      if (!p.mustSucceed()) {
        EXPECT_TRUE(shapeHasRule(p, "local.not_dividing"));
      }
    } else if (kind == "reqd_null_local") {
      ADD_FAILURE() << "a kernel without reqd_work_group_size got " << kind;
    } else if (kind == "zero_local") {
      EXPECT_TRUE(shapeHasRule(p, "local.zero"));
    } else if (kind == "zero_global") {
      EXPECT_TRUE(shapeHasRule(p, "global.zero"));
    } else if (kind == "offset_overflow") {
      EXPECT_TRUE(shapeHasRule(p, "offset.overflow"));
    } else if (kind == "local_mem_over") {
      EXPECT_TRUE(shapeHasRule(p, "local_mem.over_device"));
    } else if (kind == "invalid_work_dim") {
      EXPECT_TRUE(shapeHasRule(p, "work_dim.range"));
    } else {
      ADD_FAILURE() << "unknown family " << kind;
    }
  }
  for (const auto& kind : shapeKinds(limits(), k, o)) EXPECT_GT(seen[kind], 20) << kind;
}

TEST(ShapeGenerator, FamiliesFollowTheLimitsAndOptions) {
  KernelLimits same{1024, 0, {0, 0, 0}};
  auto kinds = shapeKinds(limits(), same, ShapeOptions{});
  // The kernel's maximum is the device's: no shape can be over one and not the other.
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "over_kernel_max"), 0);
  // Off by default: offsets (the kernel must index with the offset taken off), __local arguments,
  // and zero local sizes (they have killed a driver).
  for (const char* k : {"offset", "offset_overflow", "local_mem_over", "zero_local"})
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), k), 0) << k;
  KernelLimits reqd{1024, 0, {4, 2, 1}};
  kinds = shapeKinds(limits(), reqd, ShapeOptions{});
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "reqd_mismatch"), 1);
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "reqd_null_local"), 1);
  ShapeOptions only;
  only.kinds = {"zero_global"};
  for (const auto& s : draw(limits(), same, only, 50, 3)) EXPECT_EQ(s.kind, "zero_global");
}

TEST(ShapeGenerator, RequiredSizeShapesUseItsDimensions) {
  KernelLimits reqd{1024, 0, {4, 2, 1}};
  for (const auto& s : draw(limits(), reqd, ShapeOptions{}, 200, 11)) {
    if (s.kind == "reqd_null_local") {
      // No local size: an error on this OpenCL 1.2 device, a run from 2.0 on.
      EXPECT_FALSE(s.config.local);
      EXPECT_TRUE(shapeHasRule(predictLaunch(limits(), reqd, ProgramOptions{}, s.config),
                               "local.null_with_reqd"));
      auto d30 = limits();
      d30.opencl_major = 3;
      d30.opencl_minor = 0;
      EXPECT_TRUE(predictLaunch(d30, reqd, ProgramOptions{}, s.config).mustSucceed());
    }
    if (s.kind != "valid") continue;
    EXPECT_EQ(s.config.work_dim, 2u);
    ASSERT_TRUE(s.config.local);
    EXPECT_EQ((*s.config.local)[0], 4u);
    EXPECT_EQ((*s.config.local)[1], 2u);
    EXPECT_TRUE(predictLaunch(limits(), reqd, ProgramOptions{}, s.config).mustSucceed());
  }
}

TEST(ShapeGenerator, SameSeedSameShapes) {
  KernelLimits k{512, 0, {0, 0, 0}};
  auto a = draw(limits(), k, ShapeOptions{}, 100, 42);
  auto b = draw(limits(), k, ShapeOptions{}, 100, 42);
  auto c = draw(limits(), k, ShapeOptions{}, 100, 43);
  std::vector<std::string> sa, sb, sc;
  for (auto& s : a) sa.push_back(s.kind + s.config.toString());
  for (auto& s : b) sb.push_back(s.kind + s.config.toString());
  for (auto& s : c) sc.push_back(s.kind + s.config.toString());
  EXPECT_EQ(sa, sb);
  EXPECT_NE(sa, sc);
}
