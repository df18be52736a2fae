// Compiling ahead (run/prebuild.hpp): each program is listed once, in spec order, and each spec's
// count says when its units may start; on every real device, what a catalog spec's cases (options
// as written) and launch family (its case and the -cl-std variants) then build is among the
// programs compiled ahead.
#include "run/prebuild.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cl/session.hpp"
#include "cl/unit.hpp"
#include "core/case.hpp"
#include "core/program_budget.hpp"
#include "core/sizes.hpp"
#include "core/spec.hpp"
#include "launch/family.hpp"
#include "support/kinds.hpp"

namespace {

clh::Spec catalog(const std::string& file) {
  return clh::loadSpec(std::string(CLHARNESS_SOURCE_ROOT) + "/specs/" + file,
                       CLHARNESS_SOURCE_ROOT);
}

std::vector<clh::AheadProgram> programsOf(const clh::AheadPlan& plan, const clh::Spec& spec) {
  std::vector<clh::AheadProgram> out;
  for (const auto& p : plan.programs)
    if (p.source == spec.source_path) out.push_back(p);
  return out;
}

std::vector<std::string> optionsOf(const clh::AheadPlan& plan, const clh::Spec& spec) {
  std::vector<std::string> out;
  for (const auto& p : programsOf(plan, spec)) out.push_back(p.options);
  return out;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// A device of no driver that compiles OpenCL C 3.0: the family adds its two -cl-std variants.
clh::DeviceInfo madeUpDevice() {
  clh::DeviceInfo dev;
  dev.c_version = "OpenCL C 3.0 made-up";
  return dev;
}

TEST(CompileAhead, EachProgramOnceAndEachSpecSaysWhenItsUnitsMayStart) {
  const clh::Spec vadd = catalog("handson/vadd.yaml");
  const clh::Spec async = catalog("handson/mmul_async.yaml");  // -DNMAX={NMAX}
  const clh::AheadPlan plan = clh::programsAhead({vadd, async, vadd}, madeUpDevice(), 1, true);
  // vadd: its options as written (binaries: its cases run unspecialised), which are the family's
  // program too, then the family's two variants.
  const auto v = programsOf(plan, vadd);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].options, "");
  EXPECT_TRUE(v[0].binaries);
  EXPECT_EQ(v[0].kernels, std::vector<std::string>{"vadd"});
  EXPECT_EQ(v[1].options, "-cl-std=CL3.0");
  EXPECT_EQ(v[2].options, "-cl-std=CL3.0 -cl-uniform-work-group-size");
  // mmul_async: no cases program (each case draws its NMAX); the family's case, resolved.
  const auto a = programsOf(plan, async);
  ASSERT_EQ(a.size(), 3u);
  clh::ExprEnv env(clh::paramNames(async));
  const std::string family =
      clh::resolveCase(async, env, clh::launch::launchCaseSizes(async, false, 1)).build_options;
  EXPECT_EQ(family.rfind("-DNMAX=", 0), 0u) << family;
  EXPECT_EQ(a[0].options, family);
  EXPECT_EQ(a[1].options, family + " -cl-std=CL3.0");
  for (const auto& p : a) EXPECT_FALSE(p.binaries) << p.options;
  // The second vadd adds nothing; each spec's units wait for its own programs only.
  ASSERT_EQ(plan.ready_after.size(), 3u);
  EXPECT_EQ(plan.ready_after[0], 3u);
  EXPECT_EQ(plan.ready_after[1], 6u);
  EXPECT_EQ(plan.ready_after[2], 6u);
  EXPECT_EQ(plan.programs.size(), 6u);
}

TEST(CompileAhead, WithoutLaunchFamiliesOnlyOptionsAsWrittenAreListed) {
  const clh::AheadPlan plan = clh::programsAhead(
      {catalog("handson/vadd.yaml"), catalog("intermediate/mul.yaml")}, madeUpDevice(), 1, false);
  ASSERT_EQ(plan.programs.size(), 1u);  // mul's -DN={N}: drawn case by case
  EXPECT_EQ(plan.programs[0].options, "");
  EXPECT_EQ(plan.ready_after, (std::vector<size_t>{1, 1}));
}

// The programs a spec's cases and its launch family build on `dev`, run in this process.
struct Built {
  std::vector<std::string> cases, family;
};
Built buildsOf(const clh::Spec& spec, const clh::DeviceInfo& dev) {
  Built b;
  clh::DeviceSession cases_session(dev);
  clh::UnitOptions uo;
  uo.cases = 20;
  uo.build_programs = clh::kDefaultBuildPrograms;
  clh::runUnit(cases_session, spec, uo);
  b.cases = cases_session.builtOptions(spec.source_path);
  clh::DeviceSession family_session(dev);
  clh::launch::LaunchFamilyOptions lo;
  lo.check_results = false;
  clh::launch::runLaunchFamily(family_session, spec, clh::launch::launchCaseSizes(spec, false, 1),
                               3, 1, lo);
  b.family = family_session.builtOptions(spec.source_path);
  return b;
}

// On each real device: options as written are built exactly as compiled ahead, and so is every
// program of the launch family, where the options name sizes too.
TEST(CompileAheadOnDevices, WhatTheUnitsBuildWasCompiledAhead) {
  const auto devices = clh::test::devicesOf(clh::test::Kind{false});
  if (devices.empty()) GTEST_SKIP() << "no real device here";
  for (const std::string file :
       {"handson/vadd.yaml", "perroni/simple_matrix_mul.yaml", "intermediate/mul.yaml"}) {
    const clh::Spec spec = catalog(file);
    const bool sized = spec.build_options.find('{') != std::string::npos;
    for (const auto& dev : devices) {
      const std::string where = spec.name + " on " + dev.displayName() + ": ";
      const std::vector<std::string> ahead =
          optionsOf(clh::programsAhead({spec}, dev, 1, true), spec);
      const Built built = buildsOf(spec, dev);
      ASSERT_FALSE(built.cases.empty()) << where;
      ASSERT_FALSE(built.family.empty()) << where;
      for (const auto& o : built.family) EXPECT_TRUE(contains(ahead, o)) << where << o;
      if (!sized)
        for (const auto& o : built.cases) EXPECT_TRUE(contains(ahead, o)) << where << o;
    }
  }
}

}  // namespace
