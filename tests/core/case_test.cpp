// Tests of case resolution (every expression of a spec for concrete sizes, negative sizes
// rejected) and of seeded input data (deterministic per seed, bounds inclusive for integers).
#include "core/case.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "core/sizes.hpp"
#include "core_test_support.hpp"

namespace clh {
namespace {

const Spec& caseSpec() {
  static const Spec spec = loadSpec(test::specPath("case.yaml"), test::sourceRoot());
  return spec;
}

ResolvedCase resolve(Sizes sizes) {
  ExprEnv env(paramNames(caseSpec()));
  completeDerived(caseSpec(), env, sizes);
  return resolveCase(caseSpec(), env, sizes);
}

bool sameBytes(const HostBuffer& a, const HostBuffer& b) {
  return a.type() == b.type() && a.count() == b.count() &&
         std::memcmp(a.data(), b.data(), a.bytes()) == 0;
}

TEST(ResolveCase, EvaluatesEveryExpression) {
  ResolvedCase rc = resolve({{"TS", 4}, {"N", 10}});
  EXPECT_EQ(rc.sizes, (Sizes{{"K", 12}, {"N", 10}, {"TS", 4}}));
  EXPECT_EQ(rc.build_options, "-DTS=4 -DK=12");
  // Buffers in spec order: A, B, C, T, D.
  EXPECT_EQ(rc.counts, (std::vector<size_t>{100, 10, 100, 4, 7}));
  ASSERT_EQ(rc.shapes.size(), 5u);
  EXPECT_EQ(rc.shapes[0], (std::vector<int64_t>{10, 10}));
  EXPECT_TRUE(rc.shapes[1].empty());
  EXPECT_EQ(rc.shapes[2], (std::vector<int64_t>{10, 10}));
  ASSERT_EQ(rc.tolerances.size(), 5u);
  EXPECT_EQ(rc.tolerances[0].kind, CompareSpec::Kind::exact);
  EXPECT_EQ(rc.tolerances[1].kind, CompareSpec::Kind::tolerance);
  EXPECT_EQ(rc.tolerances[1].abs, 8);            // 2 * TS
  EXPECT_DOUBLE_EQ(rc.tolerances[1].rel, 0.01);  // 1e-3 * N
  EXPECT_EQ(rc.tolerances[2].kind, CompareSpec::Kind::ulp);
  EXPECT_EQ(rc.tolerances[2].ulp, 3);

  ASSERT_EQ(rc.launches.size(), 2u);
  const ResolvedLaunch& l0 = rc.launches[0];
  EXPECT_EQ(l0.kernel, "first");
  ASSERT_EQ(l0.args.size(), 4u);
  EXPECT_EQ(l0.args[0].kind, ArgSpec::Kind::buffer);
  EXPECT_EQ(l0.args[0].buffer, 0u);
  EXPECT_EQ(l0.args[1].buffer, 1u);
  EXPECT_EQ(l0.args[2].kind, ArgSpec::Kind::scalar);
  EXPECT_EQ(l0.args[2].type, ElemType::f32);
  EXPECT_EQ(l0.args[2].value, 2.5);  // N / 4 is exact division
  EXPECT_EQ(l0.args[3].kind, ArgSpec::Kind::local);
  EXPECT_EQ(l0.args[3].local_bytes, 16u * sizeof(float));  // TS*TS floats
  EXPECT_EQ(l0.global, (std::vector<size_t>{12, 12}));
  EXPECT_EQ(l0.local, (std::vector<size_t>{4, 4}));
  EXPECT_EQ(l0.offset, (std::vector<size_t>{1, 2}));
  const ResolvedLaunch& l1 = rc.launches[1];
  EXPECT_EQ(l1.kernel, "second");
  ASSERT_EQ(l1.args.size(), 3u);
  EXPECT_EQ(l1.args[0].buffer, 2u);
  EXPECT_EQ(l1.args[1].buffer, 3u);
  EXPECT_EQ(l1.args[2].type, ElemType::i32);
  EXPECT_EQ(l1.args[2].value, 9);
  EXPECT_EQ(l1.global, (std::vector<size_t>{5}));
  EXPECT_TRUE(l1.local.empty());
  EXPECT_TRUE(l1.offset.empty());

  // Only named scalars are visible to references.
  EXPECT_EQ(rc.scalars, (std::map<std::string, double>{{"alpha", 2.5}}));
  ASSERT_TRUE(rc.flops);
  EXPECT_EQ(*rc.flops, 2000);
  ASSERT_TRUE(rc.bytes);
  EXPECT_EQ(*rc.bytes, 48);
}

TEST(ResolveCase, OptionalPartsStayEmpty) {
  Spec spec = loadSpec(test::specPath("minimal.yaml"));
  ExprEnv env(paramNames(spec));
  ResolvedCase rc = resolveCase(spec, env, {});
  EXPECT_EQ(rc.build_options, "");
  EXPECT_EQ(rc.counts, (std::vector<size_t>{16}));
  EXPECT_FALSE(rc.flops);
  EXPECT_FALSE(rc.bytes);
  EXPECT_TRUE(rc.scalars.empty());
}

TEST(ResolveCase, NegativeCountsAndSizesAreRejected) {
  try {
    resolve({{"TS", 2}, {"N", 2}});  // D: count N - 3 = -1
    FAIL() << "a negative count resolved";
  } catch (const ExprError& e) {
    EXPECT_EQ(std::string(e.what()), "buffers.D.count: 'N - 3' = -1 is negative");
  }
  try {
    resolve({{"TS", 2}, {"N", 4}});  // second launch: global N - 5 = -1
    FAIL() << "a negative global size resolved";
  } catch (const ExprError& e) {
    EXPECT_EQ(std::string(e.what()), "global: 'N - 5' = -1 is negative");
  }
  EXPECT_NO_THROW(resolve({{"TS", 2}, {"N", 5}}));  // zero is allowed
}

// Every field of two resolutions, as the runner reads them.
void expectSameResolution(const ResolvedCase& a, const ResolvedCase& b) {
  EXPECT_EQ(a.sizes, b.sizes);
  EXPECT_EQ(a.build_options, b.build_options);
  EXPECT_EQ(a.counts, b.counts);
  EXPECT_EQ(a.shapes, b.shapes);
  ASSERT_EQ(a.tolerances.size(), b.tolerances.size());
  for (size_t i = 0; i < a.tolerances.size(); ++i) {
    EXPECT_EQ(a.tolerances[i].kind, b.tolerances[i].kind);
    EXPECT_EQ(a.tolerances[i].ulp, b.tolerances[i].ulp);
    EXPECT_EQ(a.tolerances[i].abs, b.tolerances[i].abs);
    EXPECT_EQ(a.tolerances[i].rel, b.tolerances[i].rel);
  }
  ASSERT_EQ(a.launches.size(), b.launches.size());
  for (size_t l = 0; l < a.launches.size(); ++l) {
    const ResolvedLaunch &x = a.launches[l], &y = b.launches[l];
    EXPECT_EQ(x.kernel, y.kernel);
    EXPECT_EQ(x.global, y.global);
    EXPECT_EQ(x.local, y.local);
    EXPECT_EQ(x.offset, y.offset);
    ASSERT_EQ(x.args.size(), y.args.size());
    for (size_t i = 0; i < x.args.size(); ++i) {
      EXPECT_EQ(x.args[i].kind, y.args[i].kind) << "launch " << l << " arg " << i;
      EXPECT_EQ(x.args[i].buffer, y.args[i].buffer) << "launch " << l << " arg " << i;
      EXPECT_EQ(x.args[i].type, y.args[i].type) << "launch " << l << " arg " << i;
      EXPECT_EQ(x.args[i].value, y.args[i].value) << "launch " << l << " arg " << i;
      EXPECT_EQ(x.args[i].local_bytes, y.args[i].local_bytes) << "launch " << l << " arg " << i;
      EXPECT_EQ(x.args[i].bytes, y.args[i].bytes) << "launch " << l << " arg " << i;
      EXPECT_EQ(x.args[i].image_size, y.args[i].image_size) << "launch " << l << " arg " << i;
    }
  }
  EXPECT_EQ(a.scalars, b.scalars);
  EXPECT_EQ(a.flops, b.flops);
  EXPECT_EQ(a.bytes, b.bytes);
}

// A session resolves each case into the storage of the one before (resolveCaseInto): nothing of
// an earlier case, of another spec or other sizes, may be left in it.
TEST(ResolveCase, IntoAnEarlierCasesStorageLeavesNothingOfIt) {
  const Spec minimal = loadSpec(test::specPath("minimal.yaml"));
  ExprEnv minimalEnv(paramNames(minimal));
  Sizes big{{"TS", 4}, {"N", 10}}, small{{"TS", 2}, {"N", 6}};
  ExprEnv env(paramNames(caseSpec()));
  completeDerived(caseSpec(), env, big);
  completeDerived(caseSpec(), env, small);

  ResolvedCase reused;
  resolveCaseInto(caseSpec(), env, big, reused);
  resolveCaseInto(minimal, minimalEnv, {}, reused);  // fewer buffers, launches, no scalars
  expectSameResolution(reused, resolveCase(minimal, minimalEnv, {}));
  resolveCaseInto(caseSpec(), env, big, reused);  // and back: more of everything
  expectSameResolution(reused, resolveCase(caseSpec(), env, big));
  resolveCaseInto(caseSpec(), env, small, reused);  // the same spec at other sizes
  expectSameResolution(reused, resolveCase(caseSpec(), env, small));
}

TEST(FillBuffer, SameSeedSameDataOtherSeedOtherData) {
  InitSpec init{InitSpec::Kind::uniform, -1, 1, "uniform(-1, 1)"};
  for (ElemType t : {ElemType::f32, ElemType::f64, ElemType::i32, ElemType::u8}) {
    HostBuffer a(t, 1000), b(t, 1000), c(t, 1000);
    fillBuffer(a, init, 5);
    fillBuffer(b, init, 5);
    fillBuffer(c, init, 6);
    EXPECT_TRUE(sameBytes(a, b)) << toString(t);
    EXPECT_FALSE(sameBytes(a, c)) << toString(t);
  }
}

TEST(FillBuffer, UniformFloatsStayInRangeAndSpread) {
  HostBuffer b(ElemType::f32, 10000);
  fillBuffer(b, {InitSpec::Kind::uniform, -1, 1, ""}, 42);
  auto v = b.as<float>();
  auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  EXPECT_GE(*lo, -1.0f);
  EXPECT_LE(*hi, 1.0f);
  EXPECT_LT(*lo, -0.99f);
  EXPECT_GT(*hi, 0.99f);
  std::set<float> distinct(v.begin(), v.end());
  EXPECT_GT(distinct.size(), 9000u);
}

TEST(FillBuffer, UniformIntegersCoverBothInclusiveBounds) {
  HostBuffer b(ElemType::i32, 10000);
  fillBuffer(b, {InitSpec::Kind::uniform, -3, 3, ""}, 1);
  std::set<int32_t> seen(b.as<int32_t>().begin(), b.as<int32_t>().end());
  EXPECT_EQ(seen, (std::set<int32_t>{-3, -2, -1, 0, 1, 2, 3}));

  HostBuffer u(ElemType::u8, 10000);
  fillBuffer(u, {InitSpec::Kind::uniform, 250, 255, ""}, 1);
  std::set<uint8_t> useen(u.as<uint8_t>().begin(), u.as<uint8_t>().end());
  EXPECT_EQ(useen, (std::set<uint8_t>{250, 251, 252, 253, 254, 255}));

  HostBuffer one(ElemType::i64, 100);
  fillBuffer(one, {InitSpec::Kind::uniform, 7, 7, ""}, 1);
  for (int64_t x : one.as<int64_t>()) EXPECT_EQ(x, 7);

  // Fractional bounds: the integers inside them.
  HostBuffer f(ElemType::i16, 10000);
  fillBuffer(f, {InitSpec::Kind::uniform, -1.5, 1.5, ""}, 3);
  std::set<int16_t> fseen(f.as<int16_t>().begin(), f.as<int16_t>().end());
  EXPECT_EQ(fseen, (std::set<int16_t>{-1, 0, 1}));
}

// A large buffer's draws run on several threads, a slice each: every split gives the numbers one
// thread draws, so a seed replays the same data on any machine (whatever its cores).
TEST(FillBuffer, TheDrawsAreTheSameHoweverTheyAreSplit) {
  struct Kind {
    ElemType type;
    double lo, hi;
  };
  for (const Kind& k :
       {Kind{ElemType::f32, -1, 1}, Kind{ElemType::f64, 0, 10}, Kind{ElemType::i32, -3, 3},
        Kind{ElemType::u8, 250, 255}, Kind{ElemType::u64, 0, 1e6}}) {
    SCOPED_TRACE(static_cast<int>(k.type));
    const InitSpec init{InitSpec::Kind::uniform, k.lo, k.hi, ""};
    HostBuffer one(k.type, 300007);
    fillBufferSliced(one, init, 77, 1);
    for (unsigned slices : {2u, 3u, 7u, 64u}) {
      HostBuffer split(k.type, one.count());
      fillBufferSliced(split, init, 77, slices);
      EXPECT_EQ(std::memcmp(one.data(), split.data(), one.bytes()), 0) << slices << " slices";
    }
    HostBuffer byDefault(k.type, one.count());
    fillBuffer(byDefault, init, 77);
    EXPECT_EQ(std::memcmp(one.data(), byDefault.data(), one.bytes()), 0);
    // Fewer elements than slices: one thread's draws too.
    HostBuffer tiny(k.type, 5), tinyOne(k.type, 5);
    fillBufferSliced(tiny, init, 77, 64);
    fillBufferSliced(tinyOne, init, 77, 1);
    EXPECT_EQ(std::memcmp(tiny.data(), tinyOne.data(), tiny.bytes()), 0);
  }
}

TEST(FillBuffer, ZeroConstantIotaAndPoison) {
  HostBuffer z(ElemType::f32, 8);
  std::memset(z.data(), 0xFF, z.bytes());
  fillBuffer(z, {InitSpec::Kind::zero, 0, 0, ""}, 1);
  for (float x : z.as<float>()) EXPECT_EQ(x, 0.0f);

  HostBuffer c(ElemType::f64, 8);
  fillBuffer(c, {InitSpec::Kind::constant, 0.25, 0, ""}, 1);
  for (double x : c.as<double>()) EXPECT_EQ(x, 0.25);
  HostBuffer ci(ElemType::i32, 3);
  fillBuffer(ci, {InitSpec::Kind::constant, -7, 0, ""}, 1);
  for (int32_t x : ci.as<int32_t>()) EXPECT_EQ(x, -7);

  HostBuffer i(ElemType::u32, 5);
  fillBuffer(i, {InitSpec::Kind::iota, 0, 0, ""}, 1);
  EXPECT_EQ(std::vector<uint32_t>(i.as<uint32_t>().begin(), i.as<uint32_t>().end()),
            (std::vector<uint32_t>{0, 1, 2, 3, 4}));

  HostBuffer p(ElemType::i32, 2);
  p.as<int32_t>()[0] = 11;
  p.as<int32_t>()[1] = 12;
  fillBuffer(p, {InitSpec::Kind::poison, 0, 0, ""}, 1);  // leaves the contents alone
  EXPECT_EQ(p.as<int32_t>()[0], 11);
  EXPECT_EQ(p.as<int32_t>()[1], 12);
}

TEST(DataSeed, DependsOnEveryPartOfTheCase) {
  const Sizes n17{{"N", 17}}, n18{{"N", 18}};
  const uint64_t base = dataSeed(1, "vadd", n17, "a");
  EXPECT_EQ(dataSeed(1, "vadd", n17, "a"), base);   // replayable
  EXPECT_NE(dataSeed(2, "vadd", n17, "a"), base);   // run seed
  EXPECT_NE(dataSeed(1, "vadd2", n17, "a"), base);  // spec
  EXPECT_NE(dataSeed(1, "vadd", n18, "a"), base);   // sizes
  EXPECT_NE(dataSeed(1, "vadd", {{"N", 17}, {"M", 1}}, "a"), base);
  EXPECT_NE(dataSeed(1, "vadd", n17, "b"), base);  // buffer: a and b get different data
}

// The seeds are pinned: values from the code before the sizes were formatted in place and the
// common prefix of a case's buffer seeds hashed once, so that a seed recorded in an old report
// still replays the same data.
TEST(DataSeed, KeepsItsValues) {
  const Sizes s{{"N", 1000}, {"L", 64}, {"G", 1024}, {"TS", -3}};
  EXPECT_EQ(formatSizes(s), "G=1024,L=64,N=1000,TS=-3");
  EXPECT_EQ(dataSeed(7, "handson_vadd", s, "a"), 16703610991200812412ull);
  EXPECT_EQ(hash64("handson_vadd|G=1024,L=64,N=1000,TS=-3|b", 99), 13989515631188432881ull);
  EXPECT_EQ(hash64Append(hash64("handson_vadd|G=1024,L=64,N=1000,TS=-3|", 99), "b"),
            13989515631188432881ull);
}

TEST(InitialBuffers, InputsFilledOutputsPoisonedReplayable) {
  ResolvedCase rc = resolve({{"TS", 2}, {"N", 6}});
  auto bufs = makeInitialBuffers(caseSpec(), rc, 99);
  ASSERT_EQ(bufs.size(), 5u);
  const HostBuffer& a = bufs.at("A");
  EXPECT_EQ(a.type(), ElemType::f64);
  EXPECT_EQ(a.count(), 36u);
  for (double x : a.as<double>()) {
    EXPECT_GE(x, -1.0);
    EXPECT_LE(x, 1.0);
  }
  // The data is exactly what the buffer's seed gives: --seed S --sizes ... replays it.
  HostBuffer again(ElemType::f64, 36);
  fillBuffer(again, caseSpec().buffers[0].init, dataSeed(99, "core_case", rc.sizes, "A"));
  EXPECT_TRUE(sameBytes(a, again));

  for (int32_t x : bufs.at("B").as<int32_t>()) {  // inout: initialised
    EXPECT_GE(x, -5);
    EXPECT_LE(x, 5);
  }
  const HostBuffer& c = bufs.at("C");  // out: poisoned
  for (size_t i = 0; i < c.count(); ++i) EXPECT_TRUE(isPoison(c, i)) << i;
  EXPECT_EQ(bufs.at("T").as<uint8_t>()[1], 1);                   // scratch with init: iota
  for (int32_t x : bufs.at("D").as<int32_t>()) EXPECT_EQ(x, 0);  // scratch: zero

  auto same = makeInitialBuffers(caseSpec(), rc, 99);
  auto other = makeInitialBuffers(caseSpec(), rc, 100);
  EXPECT_TRUE(sameBytes(same.at("A"), a));
  EXPECT_FALSE(sameBytes(other.at("A"), a));
}

// A session fills each case's host buffers into the last case's (makeInitialBuffersInto): the
// same contents as fresh ones, whatever the last case held (other sizes, a reference's writes,
// another spec's buffers).
TEST(InitialBuffers, IntoAnEarlierCasesBuffersTheSameAsFreshOnes) {
  const Spec minimal = loadSpec(test::specPath("minimal.yaml"));
  ExprEnv minimalEnv(paramNames(minimal));
  const ResolvedCase big = resolve({{"TS", 4}, {"N", 10}}), small = resolve({{"TS", 2}, {"N", 6}});
  const ResolvedCase one = resolveCase(minimal, minimalEnv, {});
  std::map<std::string, HostBuffer> reused;
  auto expectFresh = [&](const std::map<std::string, HostBuffer>& fresh, const char* step) {
    ASSERT_EQ(reused.size(), fresh.size()) << step;
    for (const auto& [name, hb] : fresh) {
      ASSERT_TRUE(reused.count(name)) << step << ": " << name;
      EXPECT_TRUE(sameBytes(reused.at(name), hb)) << step << ": " << name;
    }
  };
  makeInitialBuffersInto(caseSpec(), big, 7, reused);
  expectFresh(makeInitialBuffers(caseSpec(), big, 7), "first");
  makeInitialBuffersInto(caseSpec(), small, 7, reused);
  expectFresh(makeInitialBuffers(caseSpec(), small, 7), "other sizes");
  for (auto& v : reused.at("C").as<float>()) v = 1.5f;  // what a reference writes
  for (auto& v : reused.at("B").as<int32_t>()) v = 1000;
  makeInitialBuffersInto(caseSpec(), small, 8, reused);
  expectFresh(makeInitialBuffers(caseSpec(), small, 8), "after a reference's writes");
  makeInitialBuffersInto(minimal, one, 7, reused);
  expectFresh(makeInitialBuffers(minimal, one, 7), "another spec");
}

}  // namespace
}  // namespace clh
