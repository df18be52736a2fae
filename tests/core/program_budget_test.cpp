// Tests of a unit's budget of programs (core/program_budget.hpp) on catalog specs whose sizes are
// build options: at most the budget's texts are admitted, the domain's lowest and highest options
// are among them whatever the draws, specs with fixed options or a budget of 0 are not limited,
// and which specs launch one program with several local sizes.
#include "core/program_budget.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <set>
#include <string>

#include "core/sizes.hpp"
#include "core_test_support.hpp"

namespace clh {
namespace {

Spec catalogSpec(const std::string& path) {
  return loadSpec(test::sourceRoot() + "/specs/" + path, test::sourceRoot());
}

// Offers `draws` sizes of the spec's generator to the budget, as a unit's property does (only
// sizes in the domain); returns the options texts it admitted.
std::set<std::string> offer(ProgramBudget& budget, const Spec& spec, bool simulator, int draws,
                            uint64_t seed) {
  ExprEnv env(paramNames(spec));
  const auto gen = sizesGen(spec, simulator);
  rc::Random random(seed);
  std::set<std::string> admitted;
  for (int i = 0; i < draws; ++i) {
    const Sizes s = gen(random.split(), i % 100).value();
    if (!inDomain(spec, env, s, simulator, nullptr)) continue;
    env.bind(s);
    if (budget.admit(s)) admitted.insert(substituteBraces(spec.build_options, env));
  }
  return admitted;
}

// mul.yaml: N in [1, 128] (the simulator's [1, 24]) is its build option -DN={N}.
TEST(ProgramBudget, AdmitsAtMostItsBudget) {
  const Spec spec = catalogSpec("intermediate/mul.yaml");
  ProgramBudget budget(spec, false, 7, 4);
  ASSERT_TRUE(budget.limited());
  const std::set<std::string> admitted = offer(budget, spec, false, 400, 3);
  EXPECT_LE(admitted.size(), 4u);
  EXPECT_EQ(budget.built().size(), admitted.size());
  EXPECT_GT(budget.refused(), 0) << "400 draws of N in [1, 128] met only 4 values";
  EXPECT_NE(budget.note().find("did not run"), std::string::npos) << budget.note();
}

// The ends are reserved before any case is drawn: with a budget of two, only they run, in either
// order, whatever the unit's seed.
TEST(ProgramBudget, ReservesTheDomainsEnds) {
  const Spec spec = catalogSpec("intermediate/mul.yaml");
  for (uint64_t seed : {1, 2, 99}) {
    ProgramBudget budget(spec, false, seed, 2);
    EXPECT_FALSE(budget.admit({{"N", 64}})) << "seed " << seed;
    EXPECT_TRUE(budget.admit({{"N", 128}})) << "seed " << seed;
    EXPECT_TRUE(budget.admit({{"N", 1}})) << "seed " << seed;
    EXPECT_FALSE(budget.admit({{"N", 2}})) << "seed " << seed;
  }
  ProgramBudget simulated(spec, true, 1, 2);
  EXPECT_TRUE(simulated.admit({{"N", 24}}));
  EXPECT_TRUE(simulated.admit({{"N", 1}}));
  EXPECT_FALSE(simulated.admit({{"N", 128}}));
}

// mul_local.yaml: -DN={N} -DBlk={Blk} with N = BSIDE * Blk derived; its lowest options are N = 1,
// Blk = 1 and its highest N = 16 * 12, Blk = 12.
TEST(ProgramBudget, EndsOfDerivedOptions) {
  const Spec spec = catalogSpec("intermediate/mul_local.yaml");
  ProgramBudget budget(spec, false, 1, 2);
  EXPECT_TRUE(budget.admit({{"BSIDE", 16}, {"Blk", 12}, {"N", 192}}));
  EXPECT_TRUE(budget.admit({{"BSIDE", 1}, {"Blk", 1}, {"N", 1}}));
  EXPECT_FALSE(budget.admit({{"BSIDE", 2}, {"Blk", 1}, {"N", 2}}));
  EXPECT_EQ(budget.refused(), 1);
}

TEST(ProgramBudget, NoLimitWithoutSizesInTheOptionsOrWithZero) {
  const Spec fixed = catalogSpec("perroni/simple_matrix_mul.yaml");  // -DWORD=float
  ProgramBudget none(fixed, false, 1, 1);
  EXPECT_FALSE(none.limited());
  const Spec mul = catalogSpec("intermediate/mul.yaml");
  ProgramBudget zero(mul, false, 1, 0);
  EXPECT_FALSE(zero.limited());
  EXPECT_GT(offer(zero, mul, false, 200, 5).size(), 8u);
  EXPECT_EQ(zero.refused(), 0);
  EXPECT_TRUE(zero.note().empty());
}

// A program is one options text; PoCL compiles it again for each local size it is launched with
// unless its specialisation is off (cl/unit_environment.hpp). The catalog's specs of both sorts.
TEST(ProgramBudget, ProgramsThatMeetSeveralLocalSizesAreTold) {
  // -DNMAX={NMAX}, NMAX the power of two above N, the global size N with the local size left to
  // the driver: one program is launched at up to 64 global sizes.
  EXPECT_TRUE(programsMeetSeveralLocalSizes(catalogSpec("handson/mmul_row_priv.yaml")));
  // -DN={N} with a local size LR x LC that the options do not name.
  EXPECT_TRUE(programsMeetSeveralLocalSizes(catalogSpec("intermediate/get_global_local_id.yaml")));
  // -DN={N} -DBlk={Blk} with a local size BSIDE = N / Blk: the options fix it, though they do not
  // name it.
  EXPECT_FALSE(programsMeetSeveralLocalSizes(catalogSpec("intermediate/mul_local.yaml")));
  // -DN={N} with the global size N N: the driver's choice is the same for every case of N.
  EXPECT_FALSE(programsMeetSeveralLocalSizes(catalogSpec("intermediate/mul.yaml")));
  // No size in the options: a single program, for which the question is not asked.
  EXPECT_FALSE(programsMeetSeveralLocalSizes(catalogSpec("handson/vadd.yaml")));
}

}  // namespace
}  // namespace clh
