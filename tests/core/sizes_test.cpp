// Tests of size generation: generated Sizes lie in the spec's domain (device and simulator ranges),
// awkward values are favoured, shrinking reaches the smallest failing case, --sizes text
// round-trips and inDomain() says which rule a case breaks.
#include "core/sizes.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/TestListenerAdapter.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "core_test_support.hpp"

namespace clh {
namespace {

const Spec& sizesSpec() {  // TS one_of, N range+multiple_of+simulator, M range, G derived
  static const Spec spec = loadSpec(test::specPath("sizes.yaml"), test::sourceRoot());
  return spec;
}
const Spec& singleSpec() {  // N: {range: [1, 4096]}
  static const Spec spec = loadSpec(test::specPath("single.yaml"), test::sourceRoot());
  return spec;
}

// Draws `n` Sizes from a generator outside a property, with a fixed seed.
std::vector<Sizes> sample(const rc::Gen<Sizes>& gen, int n, uint64_t seed) {
  std::vector<Sizes> out;
  rc::Random random(seed);
  for (int i = 0; i < n; ++i) out.push_back(gen(random.split(), i % 100).value());
  return out;
}

RC_GTEST_PROP(SizesGen, DeviceSizesLieInTheDomain, ()) {
  const Spec& spec = sizesSpec();
  Sizes s = *sizesGen(spec, false);
  RC_ASSERT(s.size() == 4u);
  const int64_t ts = s.at("TS"), n = s.at("N"), m = s.at("M");
  RC_ASSERT(ts == 2 || ts == 4 || ts == 8);
  RC_ASSERT(n >= ts);
  RC_ASSERT(n <= 300);
  RC_ASSERT(n % ts == 0);
  RC_ASSERT(m >= 1);
  RC_ASSERT(m <= 4096);
  RC_ASSERT(s.at("G") == n / ts);
  // The generator leaves constraints to the caller; every other rule holds.
  ExprEnv env(paramNames(spec));
  std::string why;
  bool ok = inDomain(spec, env, s, false, &why);
  RC_ASSERT(ok == (m * n <= 65536));
  if (!ok) RC_ASSERT(why == "constraint 'M*N <= 65536' does not hold");
}

RC_GTEST_PROP(SizesGen, SimulatorSizesUseTheSimulatorRange, ()) {
  const Spec& spec = sizesSpec();
  Sizes s = *sizesGen(spec, true);
  const int64_t ts = s.at("TS"), n = s.at("N"), m = s.at("M");
  RC_ASSERT(n >= 1);
  RC_ASSERT(n <= 24);
  RC_ASSERT(n % ts == 0);
  RC_ASSERT(m >= 3);
  RC_ASSERT(m <= 5);
  RC_ASSERT(s.at("G") == n / ts);
  ExprEnv env(paramNames(spec));
  RC_ASSERT(inDomain(spec, env, s, true, nullptr));
}

// Every Sizes that one run of `cases` cases draws, with the runner's rapidcheck parameters
// (harness/cl/unit.cpp: maxSize 100, sizes growing from 0 over the run).
std::vector<Sizes> runSizes(const Spec& spec, uint64_t seed, int cases) {
  rc::Gen<Sizes> gen = sizesGen(spec, false);
  std::vector<Sizes> out;
  auto property = [&]() { out.push_back(*gen); };
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = cases;
  params.maxSize = 100;
  rc::detail::TestListenerAdapter quiet;
  rc::detail::TestMetadata meta;
  rc::detail::checkProperty(rc::detail::toProperty(property), meta, params, quiet);
  return out;
}

TEST(SizesGen, ARunTriesTheLowerBoundAndSpreadsOverTheRange) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    std::set<int64_t> seen;
    for (const auto& s : runSizes(singleSpec(), seed, 100)) seen.insert(s.at("N"));
    EXPECT_TRUE(seen.count(1)) << "seed " << seed;  // the lower bound
    EXPECT_TRUE(seen.count(2)) << "seed " << seed;
    EXPECT_GT(*seen.rbegin(), 2048) << "seed " << seed << ": never reached the upper half";
    EXPECT_GT(seen.size(), 30u) << "seed " << seed;
  }
}

// BUG (harness/core/sizes.cpp, sizesGen): docs/spec.md says generation favours "the bounds", but
// the awkward value is picked by an index that rapidcheck scales with the size, and the list is
// sorted, so the upper bound is only reachable at the largest sizes: a 100-case run of
// N: {range: [1, 4096]} generates N=4096 in about 2% of runs (and a 10-case simulator run the
// same), so the upper bound is in practice never tested.
TEST(SizesGen, MostRunsTryTheUpperBound) {
  int runs = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    bool hit = false;
    for (const auto& s : runSizes(singleSpec(), seed, 100)) hit |= s.at("N") == 4096;
    runs += hit;
  }
  EXPECT_GE(runs, 10) << "runs of 20 that generated the upper bound";
}

TEST(SizesGen, SameSeedSameSizes) {
  auto a = sample(sizesGen(sizesSpec(), false), 50, 11);
  auto b = sample(sizesGen(sizesSpec(), false), 50, 11);
  auto c = sample(sizesGen(sizesSpec(), false), 50, 12);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

// Runs `failsFor` as a rapidcheck property over `spec`'s sizes, as the runner does (cases outside
// the domain discarded), and returns the last failing Sizes: the end of shrinking.
std::optional<Sizes> smallestFailure(const Spec& spec, uint64_t seed,
                                     const std::function<bool(const Sizes&)>& failsFor) {
  rc::Gen<Sizes> gen = sizesGen(spec, false);
  ExprEnv env(paramNames(spec));
  std::optional<Sizes> last;
  auto property = [&]() {
    Sizes s = *gen;
    RC_PRE(inDomain(spec, env, s, false, nullptr));
    if (failsFor(s)) {
      last = s;
      RC_FAIL("fails");
    }
  };
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = 200;
  params.maxDiscardRatio = 50;
  rc::detail::TestListenerAdapter quiet;
  rc::detail::TestMetadata meta;
  auto result = rc::detail::checkProperty(rc::detail::toProperty(property), meta, params, quiet);
  rc::detail::FailureResult failure;
  if (!result.match(failure)) return std::nullopt;
  return last;
}

TEST(SizesShrink, ReachesTheMinimumOfAMonotoneFailure) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    auto last = smallestFailure(singleSpec(), seed, [](const Sizes& s) { return s.at("N") >= 37; });
    ASSERT_TRUE(last) << "seed " << seed << ": no failure found";
    EXPECT_EQ(last->at("N"), 37) << "seed " << seed;
  }
}

TEST(SizesShrink, UnrelatedParametersShrinkToTheirLowerBound) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    auto last = smallestFailure(sizesSpec(), seed, [](const Sizes& s) { return s.at("N") >= 37; });
    ASSERT_TRUE(last) << "seed " << seed;
    const Sizes& s = *last;
    EXPECT_EQ(s.at("M"), 1) << formatSizes(s);
    // N is the smallest multiple of its TS that still fails.
    EXPECT_GE(s.at("N"), 37) << formatSizes(s);
    EXPECT_LT(s.at("N") - s.at("TS"), 37) << formatSizes(s);
    EXPECT_EQ(s.at("G"), s.at("N") / s.at("TS"));
  }
}

TEST(SizesShrink, APassingPropertyHasNoFailure) {
  EXPECT_FALSE(smallestFailure(singleSpec(), 3, [](const Sizes&) { return false; }));
}

TEST(SizesDerived, CompleteDerivedFillsValuesInOrder) {
  ExprEnv env(paramNames(sizesSpec()));
  Sizes s{{"TS", 4}, {"N", 24}, {"M", 2}};
  completeDerived(sizesSpec(), env, s);
  EXPECT_EQ(s, (Sizes{{"TS", 4}, {"N", 24}, {"M", 2}, {"G", 6}}));
  s["G"] = 99;  // a replayed --sizes value for a derived parameter is recomputed
  completeDerived(sizesSpec(), env, s);
  EXPECT_EQ(s.at("G"), 6);
}

TEST(SizesDomain, ExplainsTheFirstBrokenRule) {
  const Spec& spec = sizesSpec();
  ExprEnv env(paramNames(spec));
  std::string why;
  EXPECT_TRUE(inDomain(spec, env, {{"TS", 4}, {"N", 8}, {"M", 3}, {"G", 2}}, false, &why)) << why;

  auto reason = [&](const Sizes& s, bool sim) {
    std::string w;
    EXPECT_FALSE(inDomain(spec, env, s, sim, &w)) << formatSizes(s);
    return w;
  };
  EXPECT_EQ(reason({{"TS", 5}, {"N", 10}, {"M", 3}, {"G", 2}}, false),
            "TS=5 is not one of its values");
  EXPECT_EQ(reason({{"TS", 4}, {"N", 2}, {"M", 3}, {"G", 0}}, false), "N=2 is outside [4, 300]");
  EXPECT_EQ(reason({{"TS", 4}, {"N", 304}, {"M", 3}, {"G", 76}}, false),
            "N=304 is outside [4, 300]");
  EXPECT_EQ(reason({{"TS", 4}, {"N", 10}, {"M", 3}, {"G", 2}}, false),
            "N=10 is not a multiple of TS");
  EXPECT_EQ(reason({{"TS", 4}, {"N", 32}, {"M", 3}, {"G", 8}}, true), "N=32 is outside [1, 24]");
  EXPECT_EQ(reason({{"TS", 4}, {"N", 8}, {"M", 6}, {"G", 2}}, true), "M=6 is outside [3, 5]");
  EXPECT_EQ(reason({{"TS", 4}, {"N", 300}, {"M", 4000}, {"G", 75}}, false),
            "constraint 'M*N <= 65536' does not hold");
  EXPECT_EQ(reason({{"TS", 4}, {"M", 3}}, false), "no value for N");
  // why may be null
  EXPECT_FALSE(inDomain(spec, env, {{"TS", 3}}, false, nullptr));
}

TEST(SizesText, ParseAndFormat) {
  EXPECT_EQ(parseSizes("N=17,TS=4"), (Sizes{{"N", 17}, {"TS", 4}}));
  EXPECT_EQ(parseSizes("TS=4,N=17"), (Sizes{{"N", 17}, {"TS", 4}}));
  EXPECT_EQ(parseSizes("N=-3"), (Sizes{{"N", -3}}));
  EXPECT_EQ(parseSizes("N=9223372036854775807"), (Sizes{{"N", INT64_MAX}}));
  EXPECT_EQ(parseSizes(""), Sizes{});
  EXPECT_EQ(parseSizes("N=1,"), (Sizes{{"N", 1}}));
  EXPECT_EQ(formatSizes({{"TS", 4}, {"N", 17}}), "N=17,TS=4");  // map order
  EXPECT_EQ(formatSizes({}), "");
  EXPECT_EQ(formatSizes({{"N", -2}}), "N=-2");
}

TEST(SizesText, ParseErrorsSayWhatIsWrong) {
  auto message = [](const std::string& text) {
    try {
      parseSizes(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    ADD_FAILURE() << "'" << text << "' parsed";
    return std::string();
  };
  EXPECT_EQ(message("N"), "--sizes: 'N' is not NAME=VALUE");
  EXPECT_EQ(message("=5"), "--sizes: '=5' is not NAME=VALUE");
  EXPECT_EQ(message("N=17,TS"), "--sizes: 'TS' is not NAME=VALUE");
  EXPECT_EQ(message("N=abc"), "--sizes: 'abc' (for N) is not an integer");
  EXPECT_EQ(message("N=1.5"), "--sizes: '1.5' (for N) is not an integer");
  EXPECT_EQ(message("N=12x"), "--sizes: '12x' (for N) is not an integer");
  EXPECT_EQ(message("N="), "--sizes: '' (for N) is not an integer");
  EXPECT_EQ(message("N=99999999999999999999"),
            "--sizes: '99999999999999999999' (for N) is not an integer");
}

RC_GTEST_PROP(SizesText, FormatThenParseIsIdentity, ()) {
  const auto name = rc::gen::elementOf(std::vector<std::string>{"N", "M", "TS", "K_2", "wA", "BS"});
  const auto sizes = *rc::gen::container<Sizes>(name, rc::gen::arbitrary<int64_t>());
  RC_ASSERT(parseSizes(formatSizes(sizes)) == sizes);
}

TEST(SizesHash, DeterministicAndSeeded) {
  EXPECT_EQ(hash64("N=17"), hash64("N=17"));
  EXPECT_NE(hash64("N=17"), hash64("N=18"));
  EXPECT_NE(hash64("N=17", 1), hash64("N=17", 2));
  EXPECT_EQ(hash64(""), 1469598103934665603ull);  // FNV-1a offset basis
}

// The sizes hashed piece by piece are the hash of their text (the data seeds of every case and
// replay depend on it), for no sizes, one, several, negative and 64-bit values.
TEST(SizesHash, SizesHashedInPiecesAreTheHashOfTheirText) {
  const std::vector<Sizes> all = {
      {}, {{"N", 17}}, {{"N", 1024}, {"L", 64}, {"G", 1024}}, {{"TS", -3}, {"X", INT64_MIN}}};
  for (const Sizes& s : all)
    for (uint64_t seed : {0ull, 7ull}) {
      const uint64_t start = hash64("spec|", seed);
      EXPECT_EQ(hash64AppendSizes(start, s), hash64Append(start, formatSizes(s))) << formatSizes(s);
    }
}

// A spec of parameters (name, simulator lo, hi; or a formula) and one launch of `global`.
Spec oneLaunch(const std::vector<std::tuple<std::string, std::string, std::string>>& params,
               const std::vector<std::string>& global) {
  Spec s;
  for (const auto& [name, lo, hi] : params) {
    ParamSpec p;
    p.name = name;
    if (hi.empty())
      p.value = Expr{lo};
    else
      p.sim_range = p.range = std::pair{Expr{lo}, Expr{hi}};
    s.params.push_back(p);
  }
  LaunchSpec launch;
  for (const auto& g : global) launch.global.push_back(Expr{g});
  s.launches.push_back(launch);
  return s;
}

TEST(OneWorkItem, OnlyWhenEveryGlobalSizeIsOneOnEverySimulatorDraw) {
  EXPECT_TRUE(oneWorkItemOnSimulator(oneLaunch({}, {"1"})));
  EXPECT_TRUE(oneWorkItemOnSimulator(oneLaunch({{"R", "1", "1"}}, {"R", "1"})));
  EXPECT_TRUE(
      oneWorkItemOnSimulator(oneLaunch({{"N", "1025", "1025"}, {"R", "N-1024", ""}}, {"R"})));
  EXPECT_FALSE(oneWorkItemOnSimulator(oneLaunch({}, {"2"})));
  EXPECT_FALSE(oneWorkItemOnSimulator(oneLaunch({{"R", "1", "1"}}, {"R", "2"})));
  EXPECT_FALSE(oneWorkItemOnSimulator(oneLaunch({{"R", "1", "4"}}, {"R"})));  // a range
  EXPECT_FALSE(oneWorkItemOnSimulator(oneLaunch({{"N", "1", "4"}, {"R", "N", ""}}, {"R"})));
  EXPECT_FALSE(oneWorkItemOnSimulator(oneLaunch({{"N", "1", "1"}}, {})));  // no global
  Spec two = oneLaunch({{"R", "1", "1"}}, {"R"});
  two.launches.push_back(two.launches.front());
  EXPECT_TRUE(oneWorkItemOnSimulator(two));
  two.launches.back().global = {Expr{"R+1"}};  // a second launch of two work-items
  EXPECT_FALSE(oneWorkItemOnSimulator(two));
  Spec simOnly = oneLaunch({{"R", "1", "1"}}, {"R"});
  simOnly.params[0].range = std::pair{Expr{"1"}, Expr{"4"}};  // the device's range is wider
  EXPECT_TRUE(oneWorkItemOnSimulator(simOnly));
  simOnly.params[0].sim_range.reset();
  EXPECT_FALSE(oneWorkItemOnSimulator(simOnly));
  Spec chosen = oneLaunch({}, {"R"});
  chosen.params.push_back(ParamSpec{.name = "R", .one_of = {1}});
  EXPECT_TRUE(oneWorkItemOnSimulator(chosen));
  chosen.params[0].one_of = {1, 2};
  EXPECT_FALSE(oneWorkItemOnSimulator(chosen));
}

TEST(LargestSimulatorCase, FlopsAtEachParametersLargestSimulatorValue) {
  Spec s = oneLaunch({{"N", "1", "16"}, {"H", "N/2", ""}}, {"N"});
  s.params[0].range = std::pair{Expr{"1"}, Expr{"4096"}};  // the device's: not used
  EXPECT_EQ(flopsOfLargestSimulatorCase(s), 0.0);          // no flops
  s.flops = Expr{"2*N*N*H"};
  EXPECT_EQ(flopsOfLargestSimulatorCase(s), 2.0 * 16 * 16 * 8);
  s.params.push_back(ParamSpec{.name = "TS", .one_of = {2, 8, 4}});
  s.flops = Expr{"N*TS"};
  EXPECT_EQ(flopsOfLargestSimulatorCase(s), 16.0 * 8);
  s.flops = Expr{"N*"};  // does not parse: no estimate, not an error
  EXPECT_EQ(flopsOfLargestSimulatorCase(s), 0.0);
}

}  // namespace
}  // namespace clh
