// The audit's rules on hand-made results: what counts as evidence on one device, and the verdict
// from all of them (necessary, redundant, undetermined); also scan's argument types and local size.
#include <gtest/gtest.h>

#include "audit/audit.hpp"
#include "scan/scan.hpp"

namespace {

using namespace clh;
using namespace clh::audit;
using namespace clh::scan;

Finding finding(FindingKind kind, std::vector<int> lines = {}, std::string summary = "s") {
  Finding f;
  f.kind = kind;
  f.summary = std::move(summary);
  for (int l : lines) f.lines.push_back({"k.cl", l, ""});
  return f;
}

UnitResult passed(const std::string& device, int cases = 10) {
  UnitResult u;
  u.device = device;
  u.cases_run = cases;
  return u;
}

UnitResult failed(const std::string& device, std::vector<Finding> findings,
                  Sizes sizes = {{"N", 2}}) {
  UnitResult u = passed(device, 3);
  u.status = Status::fail;
  CaseOutcome c;
  c.sizes = std::move(sizes);
  c.findings = std::move(findings);
  u.failing = c;
  return u;
}

TEST(Weigh, EveryFindingIsEvidenceWhenTheKernelItselfPasses) {
  auto e = weigh(passed("sim"), failed("sim", {finding(FindingKind::race, {41, 34})}), true);
  ASSERT_EQ(e.evidence.size(), 1u);
  EXPECT_EQ(e.evidence[0].kind, FindingKind::race);
  EXPECT_TRUE(e.note.empty());
  EXPECT_FALSE(e.clean());
}

TEST(Weigh, WhatTheKernelAlreadyShowsIsNoEvidence) {
  // wrong_result and unwritten are the same evidence; a race on other lines is new.
  auto base =
      failed("sim", {finding(FindingKind::wrong_result), finding(FindingKind::race, {10, 12})});
  auto mutant =
      failed("sim", {finding(FindingKind::unwritten), finding(FindingKind::race, {12, 10}),
                     finding(FindingKind::race, {41, 34})});
  auto e = weigh(base, mutant, true);
  ASSERT_EQ(e.evidence.size(), 1u);
  EXPECT_EQ(e.evidence[0].lines[0].line, 41);

  auto same = weigh(base, failed("sim", {finding(FindingKind::wrong_result)}), true);
  EXPECT_TRUE(same.evidence.empty());
  EXPECT_NE(same.note.find("only what the unmodified kernel shows"), std::string::npos)
      << same.note;
}

TEST(Weigh, ToolErrorsAndBuildErrorsAreNotes) {
  auto tool = weigh(passed("sim"), failed("sim", {finding(FindingKind::tool_error)}), true);
  EXPECT_TRUE(tool.evidence.empty());
  EXPECT_NE(tool.note.find("tool failed"), std::string::npos);
  auto build = weigh(passed("d"), failed("d", {finding(FindingKind::build_error)}), false);
  EXPECT_TRUE(build.evidence.empty());
  EXPECT_NE(build.note.find("does not build"), std::string::npos);
  // The note names the compiler's first error and its line, not the whole build log.
  Finding log = finding(FindingKind::build_error, {}, "clBuildProgram failed (error -11)");
  log.raw =
      "input.cl:64:15: error: variables in the local address space can only be declared\n"
      "input.cl:70:1: error: something else\n";
  auto broken = weigh(failed("d", {log}), passed("d"), false);
  EXPECT_EQ(broken.note,
            "the unmodified kernel does not build here (line 64: variables in the local address "
            "space can only be declared)");
  EXPECT_FALSE(broken.clean());
  log.raw = "error: /tmp/kcache/tempfile_x.cl:64:15: variables in the local address space\n";
  EXPECT_EQ(weigh(failed("d", {log}), passed("d"), false).note,  // PoCL's order of the parts
            "the unmodified kernel does not build here (line 64: variables in the local address "
            "space)");
  auto crashed = weigh(failed("sim", {finding(FindingKind::tool_error, {}, "Oclgrind died")}),
                       passed("sim"), true);
  EXPECT_NE(crashed.note.find("does not run here (tool_error: Oclgrind died)"), std::string::npos);
}

CallAudit call(std::vector<DeviceEvidence> devices) {
  CallAudit c;
  c.call.function = "barrier";
  c.devices = std::move(devices);
  decide(c);
  return c;
}

TEST(Decide, AnyEvidenceMakesTheCallNecessaryAndARaceIsTheReason) {
  auto wrong = weigh(passed("PoCL"),
                     failed("PoCL", {finding(FindingKind::wrong_result, {}, "C: 3 of 4")}), false);
  auto race = weigh(passed("sim"),
                    failed("sim", {finding(FindingKind::race, {41, 34}, "Read-write")}), true);
  auto c = call({wrong, race});
  EXPECT_EQ(c.verdict, Verdict::necessary);
  EXPECT_NE(c.reason.find("race"), std::string::npos) << c.reason;
  // A wrong result on a real device alone is enough, with a simulator that saw nothing.
  auto quiet = weigh(passed("sim"), passed("sim"), true);
  EXPECT_EQ(call({wrong, quiet}).verdict, Verdict::necessary);
}

TEST(Decide, RedundantNeedsEveryDeviceCleanAndASimulator) {
  auto sim = weigh(passed("sim"), passed("sim", 10), true);
  auto dev = weigh(passed("PoCL"), passed("PoCL", 100), false);
  EXPECT_EQ(call({sim, dev}).verdict, Verdict::redundant);
  auto onlyDevice = call({dev});
  EXPECT_EQ(onlyDevice.verdict, Verdict::undetermined);
  EXPECT_NE(onlyDevice.reason.find("no simulator"), std::string::npos) << onlyDevice.reason;
  auto toolFailed = weigh(passed("sim"), failed("sim", {finding(FindingKind::tool_error)}), true);
  EXPECT_EQ(call({toolFailed, dev}).verdict, Verdict::undetermined);
  EXPECT_EQ(call({}).verdict, Verdict::undetermined);
}

TEST(Describe, NamesKindSpaceLinesAndTheShrunkCase) {
  Finding f =
      finding(FindingKind::race, {41, 34},
              "Read-write data race at local memory between k.cl:41 and k.cl:34 in kernel k");
  f.address_space = "local";
  auto e =
      weigh(passed("sim"),
            failed("sim", {f, finding(FindingKind::wrong_result)}, {{"K", 3}, {"TS", 2}}), true);
  EXPECT_EQ(
      describe(e),
      "race (local): Read-write data race at local memory between line 41 and line 34 in kernel "
      "k at K=3,TS=2; also wrong_result");
  EXPECT_EQ(describe(weigh(passed("d"), passed("d", 100), false)), "pass (100 cases)");
}

// The sanitized units of a real device: a pass that says what it looked at (its first observation).
UnitResult sanitizedPass(int unrouted = 0, std::vector<std::string> notes = {}) {
  UnitResult u = passed("PoCL", 4);
  u.family = "sanitize";
  u.observations.push_back(
      "sanitized on PoCL at 1 size(s) of the spec's full ranges (N=256): 12 accesses to __global "
      "and __local memory checked (bounds; races in __local memory and across work-groups; "
      "uninitialized __local reads), " +
      std::to_string(unrouted) + " not looked at");
  for (auto& n : notes) u.observations.push_back(std::move(n));
  return u;
}

SyncCall localBarrier() {
  SyncCall c;
  c.function = "barrier";
  c.text = "barrier(CLK_LOCAL_MEM_FENCE)";
  return c;
}

TEST(WeighSanitized, OnlyTheSanitizersKindsAreEvidence) {
  auto race = weighSanitized(
      sanitizedPass(), failed("PoCL", {finding(FindingKind::race, {30, 37})}), localBarrier());
  EXPECT_TRUE(race.sanitized);
  ASSERT_EQ(race.evidence.size(), 1u);
  EXPECT_EQ(race.evidence[0].kind, FindingKind::race);
  // A crash of the instrumented program (or a timeout) is a note, never the sanitizer's evidence.
  auto crash = weighSanitized(sanitizedPass(), failed("PoCL", {finding(FindingKind::crash)}),
                              localBarrier());
  EXPECT_TRUE(crash.evidence.empty());
  EXPECT_NE(crash.note.find("crash"), std::string::npos) << crash.note;
  EXPECT_FALSE(crash.clean());
  auto clean = weighSanitized(sanitizedPass(), sanitizedPass(), localBarrier());
  EXPECT_TRUE(clean.vouches()) << clean.unseen;
  // A sanitized unit that ran no case (no size fits) says nothing.
  auto none = weighSanitized(sanitizedPass(), passed("PoCL", 0), localBarrier());
  EXPECT_FALSE(none.clean());
  EXPECT_FALSE(none.note.empty());
}

TEST(SanitizerUnseen, ACleanRunVouchesOnlyWhereItLooked) {
  EXPECT_EQ(sanitizerUnseen(localBarrier(), sanitizedPass(), sanitizedPass()), "");
  SyncCall global = localBarrier();
  global.text = "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)";
  EXPECT_NE(sanitizerUnseen(global, sanitizedPass(), sanitizedPass()).find("__global"),
            std::string::npos);
  SyncCall flags = localBarrier();
  flags.text = "barrier(FLAGS)";
  EXPECT_NE(sanitizerUnseen(flags, sanitizedPass(), sanitizedPass()), "");
  SyncCall fence;
  fence.function = "mem_fence";
  fence.text = "mem_fence(CLK_LOCAL_MEM_FENCE)";
  EXPECT_NE(sanitizerUnseen(fence, sanitizedPass(), sanitizedPass()).find("fences"),
            std::string::npos);
  SyncCall wait;
  wait.function = "wait_group_events";
  wait.text = "wait_group_events(1, &e)";
  EXPECT_EQ(sanitizerUnseen(wait, sanitizedPass(), sanitizedPass()), "");
  // The __local shadow not made, or accesses not routed, in either unit: no vouching.
  const std::string noShadow =
      "sanitizer: the __local shadow (1 bytes for 1 bytes of __local memory) does not fit the "
      "device's 1 bytes: races and uninitialized reads of __local memory not looked at";
  EXPECT_EQ(sanitizerUnseen(localBarrier(), sanitizedPass(), sanitizedPass(0, {noShadow})),
            noShadow.substr(11));
  EXPECT_NE(sanitizerUnseen(localBarrier(), sanitizedPass(2), sanitizedPass()).find("2 accesses"),
            std::string::npos);
}

TEST(Decide, ASanitizedRunThatLookedVouchesLikeTheSimulator) {
  auto dev = weigh(passed("PoCL"), passed("PoCL", 100), false);
  auto san = weighSanitized(sanitizedPass(), sanitizedPass(), localBarrier());
  auto c = call({dev, san});
  EXPECT_EQ(c.verdict, Verdict::redundant) << c.reason;
  EXPECT_NE(c.reason.find("PoCL [sanitize] 4 cases"), std::string::npos) << c.reason;
  // One that did not look everywhere does not, and says why.
  auto blind = weighSanitized(sanitizedPass(3), sanitizedPass(), localBarrier());
  auto u = call({dev, blind});
  EXPECT_EQ(u.verdict, Verdict::undetermined);
  EXPECT_NE(u.reason.find("3 accesses"), std::string::npos) << u.reason;
  // One that could not run says neither: the simulator's clean run still decides.
  auto sim = weigh(passed("sim"), passed("sim", 10), true);
  auto lost = weighSanitized(sanitizedPass(), failed("PoCL", {finding(FindingKind::tool_error)}),
                             localBarrier());
  EXPECT_EQ(call({sim, dev, lost}).verdict, Verdict::redundant);
  // Its race makes the call necessary, with the device's [sanitize] label in the reason.
  auto race = weighSanitized(
      sanitizedPass(), failed("PoCL", {finding(FindingKind::race, {30, 37})}), localBarrier());
  auto n = call({sim, dev, race});
  EXPECT_EQ(n.verdict, Verdict::necessary);
  EXPECT_EQ(n.reason.rfind("PoCL [sanitize]: race", 0), 0u) << n.reason;
}

TEST(Scan, ArgumentTypes) {
  ElemType t;
  int w = 0;
  ASSERT_TRUE(parseArgType("float*", t, w));
  EXPECT_EQ(t, ElemType::f32);
  EXPECT_EQ(w, 1);
  ASSERT_TRUE(parseArgType("const uint4*", t, w));
  EXPECT_EQ(t, ElemType::u32);
  EXPECT_EQ(w, 4);
  ASSERT_TRUE(parseArgType("float3*", t, w));
  EXPECT_EQ(w, 4);  // a 3-vector occupies 4 elements
  ASSERT_TRUE(parseArgType("unsigned char*", t, w));
  EXPECT_EQ(t, ElemType::u8);
  ASSERT_TRUE(parseArgType("int", t, w));
  EXPECT_EQ(t, ElemType::i32);
  ASSERT_TRUE(parseArgType("__global int[8]*", t, w));  // `__global int A[8][8]` (Oclgrind)
  EXPECT_EQ(t, ElemType::i32);
  EXPECT_EQ(w, 8);
  ASSERT_TRUE(parseArgType("float2[3][2]*", t, w));
  EXPECT_EQ(w, 12);
  EXPECT_FALSE(parseArgType("int[N]*", t, w));
  EXPECT_FALSE(parseArgType("struct point*", t, w));
  EXPECT_FALSE(parseArgType("image2d_t", t, w));
  EXPECT_FALSE(parseArgType("float5*", t, w));
}

TEST(Scan, DefaultLocalSizeDividesTheGlobalOne) {
  EXPECT_EQ(defaultLocalSize({1000}, 64), (std::vector<size_t>{50}));
  EXPECT_EQ(defaultLocalSize({16, 16}, 64), (std::vector<size_t>{16, 4}));
  EXPECT_EQ(defaultLocalSize({7, 3}, 64), (std::vector<size_t>{7, 3}));
  EXPECT_EQ(defaultLocalSize({97}, 64), (std::vector<size_t>{1}));  // a prime above the limit
  EXPECT_EQ(defaultLocalSize({64, 64}, 64, {8, 8}), (std::vector<size_t>{8, 8}));
}

}  // namespace
