// Tests of size expressions (ExprEnv over muParser): the operators docs/spec.md promises, integer
// conversion, the names an expression uses, "{EXPR}" substitution in build options, and errors.
#include "core/expr.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace clh {
namespace {

class ExprTest : public ::testing::Test {
 protected:
  ExprEnv env{{"N", "TS", "M"}};
  void SetUp() override { env.bind({{"N", 10}, {"TS", 4}, {"M", 3}}); }
};

TEST_F(ExprTest, Arithmetic) {
  EXPECT_EQ(env.eval("2 + 3 * 4"), 14);
  EXPECT_EQ(env.eval("(2 + 3) * 4"), 20);
  EXPECT_EQ(env.eval("2^10"), 1024);
  EXPECT_EQ(env.eval("N * N - TS"), 96);
  EXPECT_EQ(env.eval("7 / 2"), 3.5);  // `/` is exact division
  EXPECT_EQ(env.eval("-N + 1"), -9);
  EXPECT_DOUBLE_EQ(env.eval("1e-5 * N"), 1e-4);
}

TEST_F(ExprTest, Remainder) {
  EXPECT_EQ(env.eval("N % TS"), 2);
  EXPECT_EQ(env.eval("7 % 3"), 1);
  EXPECT_EQ(env.eval("8 % 4"), 0);
  EXPECT_EQ(env.eval("2 + 7 % 3"), 3);     // binds tighter than +
  EXPECT_EQ(env.eval("2 * 7 % 3"), 2);     // same level as *, left to right: (2*7) % 3
  EXPECT_EQ(env.eval("(0 - 7) % 3"), -1);  // fmod: the sign of the dividend, like C
}

TEST_F(ExprTest, FloorAndCeil) {
  EXPECT_EQ(env.eval("floor(N / TS)"), 2);
  EXPECT_EQ(env.eval("ceil(N / TS)"), 3);
  EXPECT_EQ(env.eval("ceil(N / TS) * TS"), 12);  // N rounded up to a multiple of TS
  EXPECT_EQ(env.eval("floor((0 - 7) / 2)"), -4);
  EXPECT_EQ(env.eval("ceil((0 - 7) / 2)"), -3);
  EXPECT_EQ(env.eval("floor(8 / 4)"), 2);
  EXPECT_EQ(env.eval("ceil(8 / 4)"), 2);
}

TEST_F(ExprTest, MinAndMax) {
  EXPECT_EQ(env.eval("min(N, TS)"), 4);
  EXPECT_EQ(env.eval("max(N, TS)"), 10);
  EXPECT_EQ(env.eval("min(N, 2 * TS) + max(1, M)"), 11);
}

TEST_F(ExprTest, ComparisonsAndLogic) {
  EXPECT_EQ(env.eval("N <= 10"), 1);
  EXPECT_EQ(env.eval("N < 10"), 0);
  EXPECT_EQ(env.eval("N == 10"), 1);
  EXPECT_EQ(env.eval("N != 10"), 0);
  EXPECT_EQ(env.eval("N >= TS && TS > M"), 1);
  EXPECT_EQ(env.eval("N >= TS && TS < M"), 0);
  EXPECT_EQ(env.eval("N < TS || TS > M"), 1);
  EXPECT_TRUE(env.evalBool("M*N <= 30"));
  EXPECT_FALSE(env.evalBool("M*N <= 29"));
}

TEST_F(ExprTest, EvalIntTruncatesTowardZero) {
  EXPECT_EQ(env.evalInt("N * TS"), 40);
  EXPECT_EQ(env.evalInt("7 / 2"), 3);
  EXPECT_EQ(env.evalInt("(0 - 7) / 2"), -3);
  EXPECT_EQ(env.evalInt("2.999"), 2);  // far from an integer: truncated, not rounded
  EXPECT_EQ(env.evalInt("N / TS"), 2);
}

TEST_F(ExprTest, EvalIntAbsorbsRoundingErrorNearIntegers) {
  // 0.1 * 30 is 3.0000000000000004 and 1 - 1e-12 times 3 is just below 3: both mean 3.
  EXPECT_EQ(env.evalInt("0.1 * 30"), 3);
  EXPECT_EQ(env.evalInt("(1 - 1e-12) * 3"), 3);
  EXPECT_EQ(env.evalInt("(1 - 1e-12) * (0 - 3)"), -3);
  EXPECT_EQ(env.evalInt("4.0000000001"), 4);
}

TEST_F(ExprTest, EvalIntRejectsNonFiniteValues) {
  EXPECT_THROW(env.evalInt("N / 0"), ExprError);
  EXPECT_THROW(env.evalInt("0 / 0"), ExprError);
  try {
    env.evalInt("1 / (TS - 4)");
    FAIL() << "no error";
  } catch (const ExprError& e) {
    EXPECT_NE(std::string(e.what()).find("1 / (TS - 4)"), std::string::npos) << e.what();
  }
}

// BUG (harness/core/expr.cpp, ExprEnv::evalInt): a finite value outside the range of int64_t is
// converted with static_cast<int64_t>, which is undefined behaviour (on x86-64 it yields
// INT64_MIN). A count like "2^70" should be an ExprError, as infinity is.
TEST_F(ExprTest, EvalIntRejectsValuesBeyondInt64) {
  EXPECT_THROW(env.evalInt("2^70"), ExprError);
  EXPECT_THROW(env.evalInt("0 - 2^70"), ExprError);
}

TEST_F(ExprTest, RebindingChangesTheValueOfACachedExpression) {
  EXPECT_EQ(env.eval("N * N"), 100);
  env.bind({{"N", 5}});  // TS and M are missing: they become 0
  EXPECT_EQ(env.eval("N * N"), 25);
  EXPECT_EQ(env.eval("TS + M"), 0);
  env.set("TS", 7);
  EXPECT_EQ(env.eval("N * TS"), 35);
  env.set("unknown", 1);  // ignored, not an error
  EXPECT_EQ(env.eval("N * TS"), 35);
}

// The same string object evaluated again after its text changed (a spec's field, a buffer
// reused), and many texts of the same values through one temporary each: each is its own text.
TEST_F(ExprTest, AStringWhoseTextChangedIsEvaluatedAsItsNewText) {
  std::string text = "N + 1";
  EXPECT_EQ(env.eval(text), 11);
  text = "N * 2";  // the same object, the same storage (short strings live inside it)
  EXPECT_EQ(env.eval(text), 20);
  text = "N * 3";
  EXPECT_EQ(env.eval(text), 30);
  for (int k = 0; k < 200; ++k) EXPECT_EQ(env.evalInt("N + " + std::to_string(k)), 10 + k);
}

TEST_F(ExprTest, UsedNames) {
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(sorted(env.usedNames("N * TS + 1")), (std::vector<std::string>{"N", "TS"}));
  EXPECT_EQ(sorted(env.usedNames("min(N, N) % 3")), (std::vector<std::string>{"N"}));
  EXPECT_TRUE(env.usedNames("2 * 3").empty());
  EXPECT_EQ(sorted(env.usedNames("ceil(M / TS)")), (std::vector<std::string>{"M", "TS"}));
}

TEST_F(ExprTest, UsedNamesSurfacesAnUnknownName) {
  // Either reported as used (for the loader to name it) or an error naming it.
  try {
    auto used = env.usedNames("N + Q");
    EXPECT_NE(std::find(used.begin(), used.end(), "Q"), used.end());
  } catch (const ExprError& e) {
    EXPECT_NE(std::string(e.what()).find("Q"), std::string::npos) << e.what();
  }
}

TEST_F(ExprTest, ErrorsNameTheExpression) {
  for (const char* bad : {"N *", "(N + 1", "foo(N)", "N TS", "", "N + Q"}) {
    try {
      env.eval(bad);
      ADD_FAILURE() << "'" << bad << "' evaluated";
    } catch (const ExprError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_THROW(env.usedNames("N *"), ExprError);
}

TEST_F(ExprTest, SubstituteBraces) {
  EXPECT_EQ(substituteBraces("-DTS={TS}", env), "-DTS=4");
  EXPECT_EQ(substituteBraces("-DTS={TS} -DN2={N*2} -cl-mad-enable", env),
            "-DTS=4 -DN2=20 -cl-mad-enable");
  EXPECT_EQ(substituteBraces("{TS}{M}", env), "43");
  EXPECT_EQ(substituteBraces("-DQ={N / TS}", env), "-DQ=2");  // an integer, truncated
  EXPECT_EQ(substituteBraces("-DNEG={M - N}", env), "-DNEG=-7");
  EXPECT_EQ(substituteBraces("", env), "");
  EXPECT_EQ(substituteBraces("-cl-std=CL1.2", env), "-cl-std=CL1.2");
}

TEST_F(ExprTest, SubstituteBracesErrors) {
  EXPECT_THROW(substituteBraces("-DTS={TS", env), ExprError);
  EXPECT_THROW(substituteBraces("-DTS={TS *}", env), ExprError);
  EXPECT_THROW(substituteBraces("-DX={N / 0}", env), ExprError);
}

}  // namespace
}  // namespace clh
