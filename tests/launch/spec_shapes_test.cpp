// Unit tests of the spec-aware shape generator: what it promises the family (a shape the rules
// let run stays inside the spec's index range and keeps the kernel's contract; a shape of a
// failing family breaks its own rule), which families apply, and that a seed replays its shapes.
#include "launch/spec_shapes.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>

using namespace clh::launch;

namespace {

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::vector<std::string> ruleIds(const clh::launch::Prediction& p) {
  std::vector<std::string> ids;
  for (const auto& r : p.rules) ids.push_back(r.id);
  return ids;
}

// The kernel's limits as the driver would report them with the shape's __local arguments set:
// its own local memory plus the arguments.
clh::launch::KernelLimits limitsFor(const SpecLaunch& s, const SpecShape& shape) {
  clh::launch::KernelLimits k = s.kernel;
  size_t spec_args = 0, shape_args = 0;
  for (size_t b : s.local_arg_bytes) spec_args += b;
  for (size_t b : shape.local_arg_bytes) shape_args += b;
  k.local_mem_size = s.kernel.local_mem_size - spec_args + shape_args;
  return k;
}

clh::launch::Prediction predict(const SpecLaunch& s, const SpecShape& shape) {
  return clh::launch::predictLaunch(s.device, limitsFor(s, shape),
                                    s.variants.at(shape.variant).program, shape.config);
}

// A launch of a spec as a driver might present it: 1 to 3 dimensions, small global sizes, a
// local size that divides them (or none), __local arguments, and one of a few device shapes.
rc::Gen<SpecLaunch> genSpecLaunch() {
  return rc::gen::exec([] {
    SpecLaunch s;
    const unsigned n = *rc::gen::inRange(1u, 4u);
    const bool reqd = *rc::gen::weightedElement<bool>({{1, true}, {4, false}});
    const bool spec_local = reqd || *rc::gen::arbitrary<bool>();
    for (unsigned i = 0; i < n; ++i) {
      const size_t l = *rc::gen::elementOf(std::vector<size_t>{1, 2, 3, 4, 8, 16});
      s.global.push_back(l * *rc::gen::inRange<size_t>(1, 9));
      if (spec_local) s.local.push_back(l);
    }
    if (*rc::gen::weightedElement<bool>({{1, true}, {4, false}}))
      for (unsigned i = 0; i < n; ++i) s.offset.push_back(*rc::gen::inRange<size_t>(0, 100));
    s.any_local = !reqd && (s.local.empty() || *rc::gen::arbitrary<bool>());
    if (!s.any_local) {
      for (int a = *rc::gen::inRange(0, 3); a > 0; --a) {
        const size_t elem = *rc::gen::elementOf(std::vector<size_t>{1, 4, 8});
        s.local_arg_elem.push_back(elem);
        s.local_arg_bytes.push_back(elem * *rc::gen::inRange<size_t>(1, 300));
      }
    }
    const size_t dmax = *rc::gen::elementOf(std::vector<size_t>{64, 256, 1024, 4096});
    s.device.opencl_major = *rc::gen::elementOf(std::vector<int>{1, 2, 3});
    s.device.opencl_minor = s.device.opencl_major == 1 ? 2 : 0;
    s.device.max_work_group_size = dmax;
    s.device.max_work_item_sizes = {dmax, *rc::gen::elementOf(std::vector<size_t>{dmax, dmax / 4}),
                                    64};
    s.device.local_mem_size = *rc::gen::elementOf(std::vector<uint64_t>{32768, 65536, 1 << 20});
    s.device.non_uniform_work_groups = s.device.opencl_major >= 2 && *rc::gen::arbitrary<bool>();
    s.kernel.work_group_size = *rc::gen::elementOf(std::vector<size_t>{dmax, dmax / 2});
    size_t args = 0;
    for (size_t b : s.local_arg_bytes) args += b;
    s.kernel.local_mem_size = args + *rc::gen::elementOf(std::vector<uint64_t>{0, 16, 4096});
    if (reqd)
      for (unsigned i = 0; i < 3; ++i) s.kernel.compile_work_group_size[i] = i < n ? s.local[i] : 1;
    s.variants.push_back({"spec", "", {}});
    if (s.device.opencl_major >= 2) {
      s.variants.push_back(
          {"cl3.0", "-cl-std=CL3.0", clh::launch::parseBuildOptions("-cl-std=CL3.0")});
      s.variants.push_back(
          {"cl3.0-uniform", "-cl-std=CL3.0 -cl-uniform-work-group-size",
           clh::launch::parseBuildOptions("-cl-std=CL3.0 -cl-uniform-work-group-size")});
    }
    return s;
  });
}

SpecLaunch tiled2D() {
  SpecLaunch s;
  s.global = {16, 16};
  s.local = {8, 8};
  s.local_arg_bytes = {256, 256};
  s.local_arg_elem = {4, 4};
  s.device.opencl_major = 3;
  s.device.opencl_minor = 0;
  s.device.max_work_group_size = 1024;
  s.device.max_work_item_sizes = {1024, 1024, 64};
  s.device.local_mem_size = 65536;
  s.kernel.work_group_size = 512;
  s.kernel.local_mem_size = 512 + 32;
  s.variants.push_back({"spec", "", {}});
  return s;
}

}  // namespace

// The family enqueues shapes that the rules let run on the spec's own buffers: each must keep every
// global id inside what the spec sized them for, and a local size the kernel was written for.
RC_GTEST_PROP(SpecShapes, ShapesThatMayRunStayInsideTheSpecsRangeAndContract, ()) {
  const SpecLaunch s = *genSpecLaunch();
  const SpecShape shape = *genSpecShape(s);
  const auto& c = shape.config;
  const unsigned n = s.workDim();
  RC_ASSERT(c.work_dim == n);
  RC_ASSERT(c.global.size() == n);
  const clh::launch::Prediction p = predict(s, shape);
  if (!p.accepts({clh::launch::Stage::completion, 0})) return;
  if (std::find(c.global.begin(), c.global.end(), size_t{0}) != c.global.end())
    return;  // runs nothing
  for (unsigned i = 0; i < n; ++i) {
    const size_t base = s.offset.empty() ? 0 : s.offset[i];
    const size_t off = c.offset ? (*c.offset)[i] : 0;
    RC_ASSERT(off >= base);
    RC_ASSERT(off + c.global[i] <= base + s.global[i]);
  }
  if (!s.any_local) {
    const auto want = contractLocal(s);
    if (!c.local) {
      RC_ASSERT(s.kernel.hasRequiredSize());  // NULL runs as the required size
    } else if (std::find(c.local->begin(), c.local->end(), size_t{0}) == c.local->end()) {
      RC_ASSERT(*c.local == want);
    } else {
      RC_ASSERT(s.kernel.hasRequiredSize());  // a 0 may run as NULL: as the required size
    }
  }
  if (shape.checkable) {
    RC_ASSERT(c.global == s.global);
    RC_ASSERT(c.offset.value_or(std::vector<size_t>{}) == s.offset);
  }
}

// A shape of a failing family breaks the rule the family is named after, so its driver must refuse.
RC_GTEST_PROP(SpecShapes, FailingFamiliesBreakTheirOwnRule, ()) {
  const SpecLaunch s = *genSpecLaunch();
  const SpecShape shape = *genSpecShape(s);
  const clh::launch::Prediction p = predict(s, shape);
  const auto ids = ruleIds(p);
  const std::map<std::string, std::string> rule_of = {{"over_device_max", "local.over_device_max"},
                                                      {"over_kernel_max", "local.over_kernel_max"},
                                                      {"over_item_size", "local.over_item_size"},
                                                      {"reqd_mismatch", "local.reqd_mismatch"},
                                                      {"local_mem_over", "local_mem.over_device"}};
  const auto it = rule_of.find(shape.kind);
  if (it != rule_of.end()) {
    RC_ASSERT(has(ids, it->second));
    RC_ASSERT(!p.accepts({clh::launch::Stage::completion, 0}));
  }
  if (shape.kind == "not_dividing" &&
      !clh::launch::nonUniformAllowed(s.device, s.variants[shape.variant].program))
    RC_ASSERT(has(ids, "local.not_dividing"));
  if (shape.kind == "zero_local") RC_ASSERT(has(ids, "local.zero"));
  if (shape.kind == "valid" || shape.kind == "null_local") RC_ASSERT(p.mustSucceed());
  // Up to the device's local memory, with the spec's own local size (which may break a rule of
  // its own on a small device): never over the local memory.
  if (shape.kind == "local_mem_limit") RC_ASSERT(!has(ids, "local_mem.over_device"));
}

TEST(SpecShapes, FamiliesFollowTheKernelsContract) {
  SpecLaunch tiled = tiled2D();
  const auto kinds = specShapeKinds(tiled);
  for (const char* k :
       {"spec", "not_dividing", "over_device_max", "over_item_size", "over_kernel_max",
        "zero_global", "offset", "local_mem_over", "local_mem_limit"})
    EXPECT_TRUE(has(kinds, k)) << k;
  // A kernel written for its own local size gets no local size of the runtime's choosing.
  for (const char* k : {"valid", "null_local", "zero_local", "reqd_mismatch", "reqd_null_local"})
    EXPECT_FALSE(has(kinds, k)) << k;
  std::map<std::string, std::string> omitted;
  for (const auto& [k, why] : omittedKinds(tiled)) omitted[k] = why;
  EXPECT_NE(omitted["null_local"].find("contract"), std::string::npos);
  EXPECT_NE(omitted["reqd_mismatch"].find("reqd_work_group_size"), std::string::npos);

  SpecLaunch plain = tiled;
  plain.any_local = true;
  plain.local_arg_bytes.clear();
  plain.local_arg_elem.clear();
  plain.kernel.work_group_size = 1024;
  const auto free_kinds = specShapeKinds(plain);
  for (const char* k : {"valid", "null_local", "zero_local"}) EXPECT_TRUE(has(free_kinds, k)) << k;
  for (const char* k : {"over_kernel_max", "local_mem_over"}) EXPECT_FALSE(has(free_kinds, k)) << k;
  plain.zero_local = false;
  EXPECT_FALSE(has(specShapeKinds(plain), "zero_local"));

  SpecLaunch reqd = tiled;
  reqd.kernel.compile_work_group_size = {8, 8, 1};
  const auto reqd_kinds = specShapeKinds(reqd);
  for (const char* k : {"reqd_mismatch", "reqd_null_local", "zero_local"})
    EXPECT_TRUE(has(reqd_kinds, k)) << k;

  plain.kinds = {"valid", "offset"};
  EXPECT_EQ(specShapeKinds(plain), (std::vector<std::string>{"valid", "offset"}));
}

TEST(SpecShapes, ASeedReplaysItsShapesAndEveryFamilyIsDrawn) {
  SpecLaunch s = tiled2D();
  const auto gen = genSpecShape(s);
  auto draw = [&](uint64_t seed) {
    std::vector<std::string> texts;
    rc::Random random(seed);
    for (int i = 0; i < 300; ++i)
      texts.push_back(gen(random.split(), rc::kNominalSize).value().toString(s));
    return texts;
  };
  const auto a = draw(7), b = draw(7), c = draw(8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::set<std::string> seen;
  for (const auto& t : a) seen.insert(t.substr(0, t.find(' ')));
  for (const auto& k : specShapeKinds(s)) EXPECT_TRUE(seen.count(k)) << k << " never drawn";
}

TEST(SpecShapes, LocalMemoryShapesSitJustOverAndWithinTheDevice) {
  SpecLaunch s = tiled2D();
  s.kinds = {"local_mem_over", "local_mem_limit"};
  const auto gen = genSpecShape(s);
  rc::Random random(3);
  int over = 0, limit = 0;
  for (int i = 0; i < 100; ++i) {
    const SpecShape shape = gen(random.split(), rc::kNominalSize).value();
    const uint64_t total = limitsFor(s, shape).local_mem_size;
    for (size_t j = 0; j < shape.local_arg_bytes.size(); ++j)
      EXPECT_EQ(shape.local_arg_bytes[j] % s.local_arg_elem[j], 0u);
    if (shape.kind == "local_mem_over") {
      ++over;
      EXPECT_GT(std::max<uint64_t>(total, shape.config.dynamic_local_bytes),
                s.device.local_mem_size);
    } else {
      ++limit;
      EXPECT_LE(total, s.device.local_mem_size);
      EXPECT_GE(total + 8 * 4 + 4, s.device.local_mem_size);  // within 8 elements of the limit
    }
  }
  EXPECT_GT(over, 0);
  EXPECT_GT(limit, 0);
}
