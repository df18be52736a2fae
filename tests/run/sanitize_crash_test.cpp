// Whose a sanitized case's crash or hang is: the kernel's when the same case run plain crashes or
// hangs too (its evidence named), else clharness's (the instrumented program), on hand-made units.
#include <gtest/gtest.h>

#include "run/sanitize_unit.hpp"

namespace {

using namespace clh;

UnitResult lost(FindingKind kind, const std::string& summary, Sizes sizes = {{"N", 64}}) {
  UnitResult u;
  u.family = "sanitize";
  u.cases_run = 1;
  u.status = Status::fail;
  Finding f;
  f.kind = kind;
  f.summary = summary;
  f.raw = "sanitized last words";
  CaseOutcome c;
  c.sizes = std::move(sizes);
  c.findings.push_back(f);
  u.failing = c;
  return u;
}

UnitResult plainPass() {
  UnitResult u;
  u.cases_run = 1;
  u.status = Status::pass;
  return u;
}

TEST(SanitizedCrash, LostMeansACrashATimeoutOrADeathCompilingALaunch) {
  EXPECT_TRUE(lostSanitizedCase(lost(FindingKind::crash, "died from SIGSEGV")));
  EXPECT_TRUE(lostSanitizedCase(lost(FindingKind::timeout, "ran past its limit")));
  EXPECT_FALSE(lostSanitizedCase(lost(FindingKind::race, "a race")));
  EXPECT_FALSE(lostSanitizedCase(lost(FindingKind::tool_error, "the rewrite failed")));
  EXPECT_FALSE(lostSanitizedCase(plainPass()));
}

TEST(SanitizedCrash, ThePlainRunCrashingTooMakesItTheKernels) {
  UnitResult u = lost(FindingKind::crash, "the process running the kernel died from SIGSEGV");
  UnitResult plain = lost(FindingKind::crash, "the process running the kernel died from SIGBUS");
  plain.failing->findings.front().raw = "plain last words";
  chargeLostSanitizedCase(u, &plain);
  const Finding& f = u.failing->findings.front();
  EXPECT_EQ(f.kind, FindingKind::crash);
  EXPECT_EQ(u.status, Status::fail);
  EXPECT_NE(f.summary.find("SIGBUS"), std::string::npos) << f.summary;  // the plain run's own
  EXPECT_NE(f.summary.find("at N=64"), std::string::npos) << f.summary;
  EXPECT_NE(f.summary.find("the kernel's own crash"), std::string::npos) << f.summary;
  EXPECT_NE(f.raw.find("plain last words"), std::string::npos) << f.raw;
  // A sanitized hang whose plain run hangs too: the kernel's hang.
  UnitResult hung = lost(FindingKind::timeout, "ran past its limit");
  UnitResult plainHung = lost(FindingKind::timeout, "ran past its limit");
  chargeLostSanitizedCase(hung, &plainHung);
  EXPECT_EQ(hung.failing->findings.front().kind, FindingKind::timeout);
  EXPECT_NE(hung.failing->findings.front().summary.find("own hang"), std::string::npos);
}

TEST(SanitizedCrash, ThePlainRunSurvivingMakesItTheTools) {
  UnitResult u = lost(FindingKind::crash, "the process running the kernel died from SIGSEGV");
  const UnitResult plain = plainPass();
  chargeLostSanitizedCase(u, &plain);
  const Finding& f = u.failing->findings.front();
  EXPECT_EQ(f.kind, FindingKind::tool_error);
  EXPECT_EQ(u.status, Status::tool_error);
  EXPECT_NE(f.summary.find("did not (pass)"), std::string::npos) << f.summary;
  EXPECT_NE(f.summary.find("clharness's"), std::string::npos) << f.summary;
  // A plain run that fails otherwise (a wrong result) does not make the crash the kernel's.
  UnitResult v = lost(FindingKind::timeout, "ran past its limit");
  const UnitResult wrong = lost(FindingKind::wrong_result, "c: 3 of 4 differ");
  chargeLostSanitizedCase(v, &wrong);
  EXPECT_EQ(v.failing->findings.front().kind, FindingKind::tool_error);
  // No plain run (no case had started): the tool's.
  UnitResult early = lost(FindingKind::crash, "died", {});
  chargeLostSanitizedCase(early, nullptr);
  EXPECT_EQ(early.status, Status::tool_error);
  EXPECT_NE(early.failing->findings.front().summary.find("before any case ran"), std::string::npos);
}

const std::string kFailedAsItRan =
    "the instrumented kernel did not run: clEnqueueReadBuffer (CL_OUT_OF_RESOURCES)";

// The sanitized case that failed as it ran, charged against a plain run that failed with `error`.
UnitResult chargedAgainstPlainError(const std::string& error) {
  UnitResult u = lost(FindingKind::tool_error, kFailedAsItRan);
  const UnitResult plain =
      lost(FindingKind::launch_error, "the kernel's execution failed: " + error);
  chargeLostSanitizedCase(u, &plain);
  return u;
}

// An instrumented launch that failed as it ran (NVIDIA: CL_OUT_OF_RESOURCES at the read after a
// kernel's private array overran) is the kernel's launch failure when the same case run plain
// fails with the same error, and stays the tool's when the plain run passes or fails otherwise.
TEST(SanitizedCrash, ALaunchThatFailedAsItRanIsTheKernelsWhenThePlainRunFailsTheSame) {
  const std::string& ran = kFailedAsItRan;
  EXPECT_TRUE(lostSanitizedCase(lost(FindingKind::tool_error, ran)));
  UnitResult u = chargedAgainstPlainError("CL_OUT_OF_RESOURCES");
  EXPECT_EQ(u.failing->findings.front().kind, FindingKind::launch_error);
  EXPECT_EQ(u.status, Status::fail);
  EXPECT_NE(u.failing->findings.front().summary.find("the kernel's own launch failure"),
            std::string::npos)
      << u.failing->findings.front().summary;

  UnitResult other = chargedAgainstPlainError("CL_INVALID_VALUE");
  EXPECT_EQ(other.failing->findings.front().kind, FindingKind::tool_error);
  EXPECT_EQ(other.status, Status::tool_error);

  UnitResult passed = lost(FindingKind::tool_error, ran);
  const UnitResult clean = plainPass();
  chargeLostSanitizedCase(passed, &clean);
  EXPECT_EQ(passed.failing->findings.front().kind, FindingKind::tool_error);
}

}  // namespace
