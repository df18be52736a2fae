// Unit tests of the clEnqueueNDRangeKernel rules: each expectation is the specification's rule for
// the case (OpenCL 3.0 API, and the 1.x rules for a 1.x device), written out by hand.
#include "launch/rules.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "cl/opencl.hpp"

using namespace clh::launch;

namespace {

DeviceLimits device(int major, int minor, bool non_uniform = false) {
  DeviceLimits d;
  d.opencl_major = major;
  d.opencl_minor = minor;
  d.max_work_group_size = 256;
  d.max_work_item_sizes = {256, 256, 64};
  d.local_mem_size = 32768;
  d.non_uniform_work_groups = non_uniform;
  return d;
}

KernelLimits kernel(size_t wg = 256) {
  KernelLimits k;
  k.work_group_size = wg;
  k.local_mem_size = 0;
  return k;
}

LaunchConfig launch(std::vector<size_t> global, std::optional<std::vector<size_t>> local) {
  LaunchConfig c;
  c.work_dim = static_cast<unsigned>(global.size());
  global.resize(std::max<size_t>(global.size(), 3), 1);
  if (local) local->resize(std::max<size_t>(local->size(), 3), 1);
  c.global = std::move(global);
  c.local = std::move(local);
  return c;
}

const ProgramOptions kDefault{};  // no -cl-std: OpenCL C 1.2

Outcome enq(int code) {
  return {Stage::enqueue, code};
}
const Outcome kRan{Stage::completion, CL_SUCCESS};

// The allowed outcomes as a sorted list, for exact comparisons.
std::vector<std::pair<int, int>> sorted(const std::vector<Outcome>& v) {
  std::vector<std::pair<int, int>> out;
  for (const auto& o : v) out.push_back({static_cast<int>(o.stage), o.code});
  std::sort(out.begin(), out.end());
  return out;
}
void expectAllowed(const Prediction& p, std::vector<Outcome> want) {
  EXPECT_EQ(sorted(p.allowed), sorted(want)) << p.allowedToString();
}

bool hasRule(const Prediction& p, const std::string& id) {
  return std::any_of(p.rules.begin(), p.rules.end(),
                     [&](const AppliedRule& r) { return r.id == id; });
}

}  // namespace

TEST(BuildOptions, ReadsClStdAndUniformFlag) {
  auto p = parseBuildOptions("-cl-std=CL2.0 -DTS=4");
  EXPECT_EQ(p.cl_std_major, 2);
  EXPECT_EQ(p.cl_std_minor, 0);
  EXPECT_FALSE(p.uniform_work_group_size);
  p = parseBuildOptions("-cl-std=CL1.2 -cl-std=CL3.0 -cl-uniform-work-group-size");
  EXPECT_EQ(p.cl_std_major, 3);  // the last -cl-std wins
  EXPECT_TRUE(p.uniform_work_group_size);
  p = parseBuildOptions("-DX=-cl-std=CL2.0");  // part of another option, not an option
  EXPECT_EQ(p.cl_std_major, 1);
  EXPECT_EQ(p.cl_std_minor, 2);
  EXPECT_EQ(parseBuildOptions("").cl_std_major, 1);
}

TEST(NonUniform, NeedsDeviceSupportAndClStd20WithoutUniformFlag) {
  EXPECT_FALSE(nonUniformAllowed(device(1, 2, true), parseBuildOptions("-cl-std=CL2.0")));
  EXPECT_FALSE(nonUniformAllowed(device(3, 0, false), parseBuildOptions("-cl-std=CL3.0")));
  EXPECT_FALSE(nonUniformAllowed(device(3, 0, true), parseBuildOptions("")));
  EXPECT_FALSE(nonUniformAllowed(device(3, 0, true), parseBuildOptions("-cl-std=CL1.2")));
  EXPECT_FALSE(nonUniformAllowed(device(3, 0, true),
                                 parseBuildOptions("-cl-std=CL2.0 -cl-uniform-work-group-size")));
  EXPECT_TRUE(nonUniformAllowed(device(3, 0, true), parseBuildOptions("-cl-std=CL3.0")));
  EXPECT_TRUE(nonUniformAllowed(device(2, 0, true), parseBuildOptions("-cl-std=CL2.0")));
}

TEST(LaunchRules, ValidLaunchMustRun) {
  for (auto l :
       {launch({64}, std::vector<size_t>{8}), launch({64, 32}, std::vector<size_t>{16, 16}),
        launch({8, 8, 64}, std::vector<size_t>{2, 2, 64}), launch({1000}, std::nullopt)}) {
    auto p = predictLaunch(device(1, 2), kernel(), kDefault, l);
    EXPECT_TRUE(p.mustSucceed()) << l.toString();
    expectAllowed(p, {kRan});
    EXPECT_FALSE(p.accepts(enq(CL_INVALID_WORK_GROUP_SIZE)));
  }
}

TEST(LaunchRules, WorkDimOutOfRange) {
  for (unsigned wd : {0u, 4u}) {
    auto l = launch({64, 1, 1, 1}, std::vector<size_t>{8, 1, 1, 1});
    l.work_dim = wd;
    auto p = predictLaunch(device(3, 0), kernel(), kDefault, l);
    expectAllowed(p, {enq(CL_INVALID_WORK_DIMENSION)});
    EXPECT_TRUE(hasRule(p, "work_dim.range"));
  }
}

TEST(LaunchRules, ZeroGlobalIsAnErrorBefore21AndSucceedsFrom21) {
  auto l = launch({64, 0}, std::nullopt);
  expectAllowed(predictLaunch(device(1, 2), kernel(), kDefault, l),
                {enq(CL_INVALID_GLOBAL_WORK_SIZE)});
  expectAllowed(predictLaunch(device(2, 0), kernel(), kDefault, l),
                {enq(CL_INVALID_GLOBAL_WORK_SIZE)});
  expectAllowed(predictLaunch(device(2, 1), kernel(), kDefault, l), {kRan});
  expectAllowed(predictLaunch(device(3, 0), kernel(), kDefault, l), {kRan});
  // NULL global_work_size is the same rule.
  LaunchConfig null_global = launch({1}, std::nullopt);
  null_global.global.clear();
  expectAllowed(predictLaunch(device(1, 2), kernel(), kDefault, null_global),
                {enq(CL_INVALID_GLOBAL_WORK_SIZE)});
  // From 2.1, a zero-size launch that also breaks a local-size rule may give either answer.
  auto both = launch({0}, std::vector<size_t>{512});
  expectAllowed(predictLaunch(device(3, 0), kernel(), kDefault, both),
                {enq(CL_INVALID_WORK_GROUP_SIZE), enq(CL_INVALID_WORK_ITEM_SIZE), kRan});
}

TEST(LaunchRules, GlobalOverDeviceSizeT) {
  auto d = device(1, 2);
  d.address_bits = 32;
  auto l = launch({size_t{1} << 32}, std::nullopt);
  expectAllowed(predictLaunch(d, kernel(), kDefault, l), {enq(CL_INVALID_GLOBAL_WORK_SIZE)});
  l.global[0] = (size_t{1} << 32) - 1;
  EXPECT_TRUE(predictLaunch(d, kernel(), kDefault, l).mustSucceed());
}

TEST(LaunchRules, GlobalOffset) {
  auto l = launch({64}, std::vector<size_t>{8});
  l.offset = std::vector<size_t>{100, 0, 0};
  EXPECT_TRUE(predictLaunch(device(1, 2), kernel(), kDefault, l).mustSucceed());
  // Before 1.1 global_work_offset must be NULL.
  expectAllowed(predictLaunch(device(1, 0), kernel(), kDefault, l),
                {enq(CL_INVALID_GLOBAL_OFFSET)});
  // global + offset may reach the largest size_t, not pass it.
  const size_t max = std::numeric_limits<size_t>::max();
  l.offset = std::vector<size_t>{max - 64, 0, 0};
  EXPECT_TRUE(predictLaunch(device(1, 2), kernel(), kDefault, l).mustSucceed());
  l.offset = std::vector<size_t>{max - 63, 0, 0};
  expectAllowed(predictLaunch(device(1, 2), kernel(), kDefault, l),
                {enq(CL_INVALID_GLOBAL_OFFSET)});
  // On a 32-bit device the limit is 2^32 - 1.
  auto d32 = device(1, 2);
  d32.address_bits = 32;
  l.offset = std::vector<size_t>{(size_t{1} << 32) - 64, 0, 0};
  expectAllowed(predictLaunch(d32, kernel(), kDefault, l), {enq(CL_INVALID_GLOBAL_OFFSET)});
}

TEST(LaunchRules, LocalOverItemSize) {
  // Dimension 2 allows 64: 128 there is over the item size but within the work-group maximum.
  auto p = predictLaunch(device(1, 2), kernel(), kDefault,
                         launch({1, 1, 128}, std::vector<size_t>{1, 1, 128}));
  expectAllowed(p, {enq(CL_INVALID_WORK_ITEM_SIZE)});
  EXPECT_TRUE(hasRule(p, "local.over_item_size"));
  // Over the item size and over the work-group maximum: either code.
  p = predictLaunch(device(3, 0), kernel(), kDefault, launch({512}, std::vector<size_t>{512}));
  expectAllowed(p, {enq(CL_INVALID_WORK_ITEM_SIZE), enq(CL_INVALID_WORK_GROUP_SIZE)});
  EXPECT_EQ(p.rules.size(), 2u);
}

TEST(LaunchRules, LocalOverDeviceMax) {
  auto p = predictLaunch(device(1, 2), kernel(), kDefault,
                         launch({32, 16}, std::vector<size_t>{32, 16}));  // 512 > 256
  expectAllowed(p, {enq(CL_INVALID_WORK_GROUP_SIZE)});
  EXPECT_TRUE(hasRule(p, "local.over_device_max"));
}

TEST(LaunchRules, LocalOverKernelMax) {
  auto l = launch({128}, std::vector<size_t>{128});
  // OpenCL 2.0+: CL_KERNEL_WORK_GROUP_SIZE is the limit of CL_INVALID_WORK_GROUP_SIZE.
  expectAllowed(predictLaunch(device(3, 0), kernel(64), kDefault, l),
                {enq(CL_INVALID_WORK_GROUP_SIZE)});
  // OpenCL 1.x named the device maximum there; over the kernel's own: either code.
  expectAllowed(predictLaunch(device(1, 2), kernel(64), kDefault, l),
                {enq(CL_INVALID_WORK_GROUP_SIZE), enq(CL_OUT_OF_RESOURCES)});
  EXPECT_TRUE(predictLaunch(device(1, 2), kernel(128), kDefault, l).mustSucceed());
}

TEST(LaunchRules, NonDividingLocalSize) {
  auto l = launch({100}, std::vector<size_t>{8});
  expectAllowed(predictLaunch(device(1, 2), kernel(), kDefault, l),
                {enq(CL_INVALID_WORK_GROUP_SIZE)});
  // Non-uniform work-groups need all three: device support, -cl-std=CL2.0+, no uniform flag.
  EXPECT_TRUE(predictLaunch(device(3, 0, true), kernel(), parseBuildOptions("-cl-std=CL3.0"), l)
                  .mustSucceed());
  expectAllowed(predictLaunch(device(3, 0, false), kernel(), parseBuildOptions("-cl-std=CL3.0"), l),
                {enq(CL_INVALID_WORK_GROUP_SIZE)});
  expectAllowed(predictLaunch(device(3, 0, true), kernel(), kDefault, l),
                {enq(CL_INVALID_WORK_GROUP_SIZE)});
  expectAllowed(predictLaunch(device(3, 0, true), kernel(),
                              parseBuildOptions("-cl-std=CL2.0 -cl-uniform-work-group-size"), l),
                {enq(CL_INVALID_WORK_GROUP_SIZE)});
  // Non-uniform groups do not lift the size limits.
  auto big = launch({1000}, std::vector<size_t>{300});
  expectAllowed(
      predictLaunch(device(3, 0, true), kernel(), parseBuildOptions("-cl-std=CL3.0"), big),
      {enq(CL_INVALID_WORK_GROUP_SIZE), enq(CL_INVALID_WORK_ITEM_SIZE)});
}

TEST(LaunchRules, RequiredWorkGroupSize) {
  auto k = kernel();
  k.compile_work_group_size = {8, 2, 1};
  EXPECT_TRUE(predictLaunch(device(1, 2), k, kDefault, launch({64, 4}, std::vector<size_t>{8, 2}))
                  .mustSucceed());
  expectAllowed(
      predictLaunch(device(1, 2), k, kDefault, launch({64, 4}, std::vector<size_t>{4, 4})),
      {enq(CL_INVALID_WORK_GROUP_SIZE)});
  // In 1D the missing dimensions count as 1: (8) is not (8, 2, 1).
  expectAllowed(predictLaunch(device(3, 0), k, kDefault, launch({64}, std::vector<size_t>{8})),
                {enq(CL_INVALID_WORK_GROUP_SIZE)});
  // NULL local size: an error in OpenCL 1.x, the required size used from 2.0.
  expectAllowed(predictLaunch(device(1, 2), k, kDefault, launch({64, 4}, std::nullopt)),
                {enq(CL_INVALID_WORK_GROUP_SIZE)});
  EXPECT_TRUE(
      predictLaunch(device(3, 0), k, kDefault, launch({64, 4}, std::nullopt)).mustSucceed());
  // ... unless the global size is not a multiple of it and groups must be uniform.
  expectAllowed(predictLaunch(device(3, 0), k, kDefault, launch({64, 3}, std::nullopt)),
                {enq(CL_INVALID_WORK_GROUP_SIZE)});
  KernelLimits k1 = kernel();
  k1.compile_work_group_size = {16, 1, 1};
  EXPECT_TRUE(predictLaunch(device(1, 2), k1, kDefault, launch({64}, std::vector<size_t>{16}))
                  .mustSucceed());
}

TEST(LaunchRules, ZeroLocalSizeHasNoNamedCode) {
  auto p =
      predictLaunch(device(1, 2), kernel(), kDefault, launch({64, 8}, std::vector<size_t>{8, 0}));
  EXPECT_TRUE(hasRule(p, "local.zero"));
  expectAllowed(p, {enq(CL_INVALID_WORK_GROUP_SIZE), enq(CL_INVALID_WORK_ITEM_SIZE), kRan});
  EXPECT_FALSE(p.accepts(enq(CL_INVALID_VALUE)));
}

// Running as with NULL is allowed for the 0 alone: with a rule that forbids running (here
// reqd_work_group_size), only the errors of the broken rules remain.
TEST(LaunchRules, ZeroLocalWithAnotherBrokenRuleMayNotRun) {
  auto k = kernel();
  k.compile_work_group_size = {8, 2, 1};
  auto p = predictLaunch(device(1, 2), k, kDefault, launch({64, 8}, std::vector<size_t>{8, 0}));
  EXPECT_TRUE(hasRule(p, "local.zero"));
  EXPECT_TRUE(hasRule(p, "local.reqd_mismatch"));
  EXPECT_FALSE(p.accepts(kRan));
  EXPECT_TRUE(p.accepts(enq(CL_INVALID_WORK_GROUP_SIZE)));
  EXPECT_TRUE(p.accepts(enq(CL_INVALID_WORK_ITEM_SIZE)));
}

// Where a rule lets a launch succeed, success means running: CL_SUCCESS with work-items that never
// ran (Oclgrind 21.10 on a 0 in the local size) conforms to no rule, the 0 in local size included.
TEST(LaunchRules, SuccessMustRunEveryWorkItem) {
  auto zero = predictLaunch(device(1, 2), kernel(), kDefault, launch({64}, std::vector<size_t>{0}));
  ASSERT_TRUE(zero.accepts(kRan));
  EXPECT_TRUE(zero.acceptsRun(kRan, 0));
  EXPECT_FALSE(zero.acceptsRun(kRan, 64));
  EXPECT_FALSE(zero.acceptsRun(kRan, 1));
  EXPECT_TRUE(zero.acceptsRun(enq(CL_INVALID_WORK_GROUP_SIZE), 0));
  EXPECT_FALSE(zero.acceptsRun(enq(CL_INVALID_VALUE), 0));
  // The same for launches that must run: a local size, NULL, an offset, a partial last group.
  auto offset = launch({64}, std::vector<size_t>{8});
  offset.offset = std::vector<size_t>{5, 0, 0};
  const std::pair<DeviceLimits, LaunchConfig> must_run[] = {
      {device(1, 2), launch({64, 4}, std::vector<size_t>{8, 2})},
      {device(1, 2), launch({100}, std::nullopt)},
      {device(1, 2), offset},
      {device(2, 0, true), launch({100}, std::vector<size_t>{8})},
  };
  auto cl20 = kDefault;
  cl20.cl_std_major = 2;
  cl20.cl_std_minor = 0;
  for (const auto& [d, l] : must_run) {
    auto p = predictLaunch(d, kernel(), cl20, l);
    SCOPED_TRACE(l.toString());
    EXPECT_TRUE(p.mustSucceed()) << p.allowedToString();
    EXPECT_TRUE(p.acceptsRun(kRan, 0));
    EXPECT_FALSE(p.acceptsRun(kRan, 3));
  }
  // A zero-size launch from 2.1 has no work-item to run.
  auto empty = predictLaunch(device(2, 1), kernel(), kDefault, launch({0}, std::nullopt));
  EXPECT_TRUE(empty.acceptsRun(kRan, 0));
}

TEST(LaunchRules, LocalMemoryOverTheDevice) {
  auto l = launch({64}, std::vector<size_t>{8});
  l.dynamic_local_bytes = 32768 + 4;
  auto p = predictLaunch(device(1, 2), kernel(), kDefault, l);
  EXPECT_TRUE(hasRule(p, "local_mem.over_device"));
  expectAllowed(p, {{Stage::set_args, CL_OUT_OF_RESOURCES},
                    enq(CL_OUT_OF_RESOURCES),
                    {Stage::completion, kAnyError}});
  EXPECT_TRUE(p.accepts({Stage::completion, CL_OUT_OF_RESOURCES}));
  EXPECT_TRUE(p.accepts({Stage::completion, -9999}));
  EXPECT_FALSE(p.accepts(kRan));
  // From 2.2 clSetKernelArg may also say CL_MAX_SIZE_RESTRICTION_EXCEEDED.
  EXPECT_TRUE(predictLaunch(device(3, 0), kernel(), kDefault, l)
                  .accepts({Stage::set_args, CL_MAX_SIZE_RESTRICTION_EXCEEDED}));
  // Static __local usage counts the same (CL_KERNEL_LOCAL_MEM_SIZE).
  auto k = kernel();
  k.local_mem_size = 40000;
  EXPECT_TRUE(hasRule(predictLaunch(device(1, 2), k, kDefault, launch({64}, std::nullopt)),
                      "local_mem.over_device"));
  // Exactly the device's size fits.
  l.dynamic_local_bytes = 32768;
  EXPECT_TRUE(predictLaunch(device(1, 2), kernel(), kDefault, l).mustSucceed());
  // With another rule broken the enqueue must fail: no failure at completion then.
  auto both = launch({100}, std::vector<size_t>{8});
  both.dynamic_local_bytes = 40000;
  auto pb = predictLaunch(device(1, 2), kernel(), kDefault, both);
  EXPECT_TRUE(pb.accepts(enq(CL_INVALID_WORK_GROUP_SIZE)));
  EXPECT_TRUE(pb.accepts(enq(CL_OUT_OF_RESOURCES)));
  EXPECT_FALSE(pb.accepts({Stage::completion, CL_OUT_OF_RESOURCES}));
}

TEST(LaunchRules, SeveralRulesBrokenAllowEachCode) {
  // Not dividing, over the item size in dimension 2, and over the device maximum.
  auto p = predictLaunch(device(1, 2), kernel(), kDefault,
                         launch({10, 10, 100}, std::vector<size_t>{3, 3, 128}));
  expectAllowed(p, {enq(CL_INVALID_WORK_GROUP_SIZE), enq(CL_INVALID_WORK_ITEM_SIZE)});
  EXPECT_GE(p.rules.size(), 3u);
  for (const auto& r : p.rules) EXPECT_FALSE(r.reason.empty()) << r.id;
}

TEST(Outcome, PrintsStageAndCodeName) {
  EXPECT_EQ(enq(CL_INVALID_WORK_GROUP_SIZE).toString(),
            "enqueue: CL_INVALID_WORK_GROUP_SIZE (-54)");
  EXPECT_EQ((Outcome{Stage::completion, kAnyError}).toString(), "completion: any error");
}
