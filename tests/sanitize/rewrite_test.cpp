// The sanitizer's rewrite on clang's syntax tree: which accesses become sites (kind, line, space),
// what is reported as not looked at, and the shape of the instrumented program.
#include "sanitize/rewrite.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "sanitize/run.hpp"

namespace {

using clh::sanitize::AccessKind;
using clh::sanitize::instrument;

const char* kKernel = R"CL(#define N 16
float get(__global const float* a, int i) { return a[i]; }
__kernel void k(__global const float* a, __global float* b, __local float* t, int n) {
  __local int tile[N];
  int i = get_global_id(0), l = get_local_id(0);
  tile[l] = (int)a[i + 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  b[i] += tile[(l + 1) % N] + get(a, i);
  t[l]++;
  __global float* p = b + 1;
  *p = vload4(0, a).x;
  if (l == 0) atomic_inc(&tile[0]);
}
__kernel void other(__global const float* a) { float x = get(a, 0); }
)CL";

TEST(SanitizeRewrite, EveryGlobalAndLocalAccessIsASiteWithItsKindLineAndSpace) {
  const auto r = instrument(kKernel, "k.cl", "k", "");
  ASSERT_EQ(r.error, "");
  struct Want {
    int line;
    AccessKind kind;
    const char* space;
    const char* text;
  };
  const Want want[] = {
      {2, AccessKind::read, "global", "a[i]"},
      {6, AccessKind::write, "local", "tile[l]"},
      {6, AccessKind::read, "global", "a[i + 1]"},
      {8, AccessKind::read_write, "global", "b[i]"},
      {8, AccessKind::read, "local", "tile[(l + 1) % N]"},
      {9, AccessKind::read_write, "local", "t[l]"},
      {11, AccessKind::write, "global", "*p"},
      {11, AccessKind::read, "global", "vload4(0, a)"},
      {12, AccessKind::atomic, "local", "tile[0]"},
  };
  ASSERT_EQ(r.sites.size(), std::size(want));
  for (size_t i = 0; i < r.sites.size(); ++i) {
    EXPECT_EQ(r.sites[i].line, want[i].line) << i;
    EXPECT_EQ(r.sites[i].kind, want[i].kind) << i;
    EXPECT_EQ(r.sites[i].space, want[i].space) << i;
    EXPECT_EQ(r.sites[i].text, want[i].text) << i;
  }
  ASSERT_EQ(r.globals.size(), 2u);
  EXPECT_EQ(r.globals[1].name, "b");
  EXPECT_EQ(r.globals[1].arg_index, 1);
  ASSERT_EQ(r.locals.size(), 2u);  // the parameter, then the declared array
  EXPECT_EQ(r.locals[0].arg_index, 2);
  EXPECT_EQ(r.locals[1].name, "tile");
  EXPECT_EQ(r.locals[1].bytes, 64u);
  EXPECT_EQ(r.original_args, 4);
}

TEST(SanitizeRewrite, WhatItCannotRouteIsListedAsNotLookedAt) {
  const char* text = R"CL(#define AT(i) a[i]
__kernel void k(__global float* a) {
  AT(0) = 1.0f;
  prefetch(a, 4);
}
)CL";
  const auto r = instrument(text, "m.cl", "k", "");
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.sites.empty());
  ASSERT_EQ(r.unchecked.size(), 2u);
  EXPECT_EQ(r.unchecked[0].line, 3);
  EXPECT_NE(r.unchecked[0].why.find("macro"), std::string::npos);
  EXPECT_EQ(r.unchecked[1].line, 4);
  EXPECT_NE(r.unchecked[1].why.find("prefetch"), std::string::npos);
}

TEST(SanitizeRewrite, TheProgramKeepsTheFilesLinesAndThreadsTheContextThroughHelpers) {
  const auto r = instrument(kKernel, "k.cl", "k", "");
  ASSERT_EQ(r.error, "");
  const size_t line = r.source.find("#line 1 \"k.cl\"\n");
  ASSERT_NE(line, std::string::npos);
  const std::string program = r.source.substr(line);
  size_t lines = 0;
  for (char c : program) lines += c == '\n';
  size_t original = 0;
  for (const char* c = kKernel; *c; ++c) original += *c == '\n';
  EXPECT_EQ(lines, original + 1);  // the directive's own line, and not one more
  EXPECT_NE(program.find("float get(struct __clh_ctx* __clh_c, __global const float* a"),
            std::string::npos);
  EXPECT_NE(program.find("get(__clh_c, a, i)"), std::string::npos);
  EXPECT_NE(program.find("__global uint* __clh_gsh)"), std::string::npos);
  EXPECT_NE(program.find("__clh_c->on = 0;"), std::string::npos);  // the other kernel: off
  EXPECT_NE(program.find("__clh_barrier(CLK_LOCAL_MEM_FENCE)"), std::string::npos);
}

// vload/vstore (and the half forms), async copies both ways and atomics given a pointer are sites
// of their own, each element's size and the call's text, and the calls go through the runtime.
TEST(SanitizeRewrite, CallsThatTouchMemoryThemselvesAreSitesRoutedThroughTheRuntime) {
  const char* text = R"CL(__kernel void k(__global float* a, __global half* h, __global int* c) {
  __local float t[64];
  int i = get_global_id(0), l = get_local_id(0);
  vstore4(vload4(i, a), l, t);
  vstore_half_rte(vload_half(i, h), i + 1, h);
  event_t e = async_work_group_strided_copy(t, a + 1, 16, 2, 0);
  e = async_work_group_copy(a, t, 16, e);
  wait_group_events(1, &e);
  atomic_add(c + i, 1);
}
)CL";
  const auto r = instrument(text, "c.cl", "k", "");
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.unchecked.empty());
  EXPECT_FALSE(r.async_copies);  // every copy followed: the uninitialized check stays on
  struct Want {
    int line;
    AccessKind kind;
    const char* space;
    size_t bytes;
  };
  const Want want[] = {
      {4, AccessKind::write, "local", 4},   {4, AccessKind::read, "global", 4},
      {5, AccessKind::write, "global", 2},  {5, AccessKind::read, "global", 2},
      {6, AccessKind::write, "local", 4},   {6, AccessKind::read, "global", 4},
      {7, AccessKind::write, "global", 4},  {7, AccessKind::read, "local", 4},
      {9, AccessKind::atomic, "global", 4},
  };
  ASSERT_EQ(r.sites.size(), std::size(want));
  for (size_t i = 0; i < r.sites.size(); ++i) {
    EXPECT_EQ(r.sites[i].line, want[i].line) << i;
    EXPECT_EQ(r.sites[i].kind, want[i].kind) << i;
    EXPECT_EQ(r.sites[i].space, want[i].space) << i;
    EXPECT_EQ(r.sites[i].bytes, want[i].bytes) << i;
  }
  EXPECT_EQ(r.sites[0].text, "vstore4(vload4(i, a), l, t)");
  const std::string program = r.source.substr(r.source.find("#line 1"));
  EXPECT_NE(program.find("vstore4(vload4(0, (const __global float *)__clh_gvec(__clh_c, 1, 0, 1, "
                         "(ulong)(i), (__global void*)(a), 4, 4, 4)), 0, (__local float *)"
                         "__clh_lvec(__clh_c, 0, 0, 2, (ulong)(l), (__local void*)(t), 4, 4, 4))"),
            std::string::npos)
      << program;
  EXPECT_NE(program.find("__clh_acopy_lgs(__clh_c, 4, 5, 0, 0, 4, (__local void*)(t), "
                         "(const __global void*)(a + 1), 16, 2, 0)"),
            std::string::npos)
      << program;
  EXPECT_NE(program.find("__clh_acopy_gl(__clh_c, 6, 7, 0, 0, 4,"), std::string::npos);
  EXPECT_NE(program.find("__clh_wait(__clh_c, 1, &e)"), std::string::npos);
  EXPECT_NE(program.find("atomic_add((volatile __global int *)__clh_ga(__clh_c, 8, 2, 4, "
                         "(__global void*)(c + i), 4), 1)"),
            std::string::npos)
      << program;
}

// A buffer is read-only (bounds checks only, no shadow) when every write names its buffer and
// none names it: plain stores, vstores, async copies out of __local memory and atomics all write.
TEST(SanitizeRewrite, OnlyBuffersNoWriteCanReachAreTakenAsReadOnly) {
  const auto mask = [](const char* text) {
    const auto r = instrument(text, "r.cl", "k", "");
    EXPECT_EQ(r.error, "") << text;
    return clh::sanitize::readOnlyGlobals(r);
  };
  EXPECT_EQ(mask("__kernel void k(__global const float* a, __global const float* b, __global "
                 "float* c) { int i = get_global_id(0); c[i] = a[i] * b[i]; }"),
            0b011u);
  EXPECT_EQ(mask("__kernel void k(__global float* a, __global float* b) { int i = "
                 "get_global_id(0); b[i] += a[i]; vstore2((float2)(0), i, a); }"),
            0u);
  EXPECT_EQ(mask("__kernel void k(__global int* a, __global int* b) { atomic_inc(&a[0]); "
                 "atomic_add(b + 1, a[2]); }"),
            0u);
  EXPECT_EQ(mask("__kernel void k(__global float* a, __global const float* b) { __local float "
                 "t[16]; event_t e = async_work_group_copy(a, t, 16, 0); wait_group_events(1, "
                 "&e); }"),
            0b10u);
  // a write through a helper's pointer or a pointer variable: its buffer is known at run time
  EXPECT_EQ(mask("void put(__global float* p) { *p = 1; }\n__kernel void k(__global float* a, "
                 "__global const float* b) { put(a); }"),
            0u);
  EXPECT_EQ(mask("__kernel void k(__global float* a, __global const float* b) { __global float* "
                 "p = a + 1; *p = b[0]; }"),
            0u);
}

// The branches that decide whether a barrier is reached (an `if` around one, a loop around one, an
// `if` around a return or break that skips one) vote through __clh_cond with the side that skips
// the barrier; the others are left alone.
TEST(SanitizeRewrite, TheBranchesThatDecideABarrierAreCheckedAndNoOther) {
  const char* text = R"CL(__kernel void k(__global float* a, int n) {
  int i = get_global_id(0), l = get_local_id(0);
  if (i >= n) return;
  if (l < 4) a[i] = 0.0f;
  for (int t = 0; t < n; ++t) {
    if (a[t] < 0.0f) break;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l < 16) { barrier(CLK_GLOBAL_MEM_FENCE); }
  if (i + 1 >= n) return;
  a[i] += 1.0f;
}
)CL";
  const auto r = instrument(text, "b.cl", "k", "");
  ASSERT_EQ(r.error, "");
  std::vector<std::tuple<int, int, std::string>> branches;  // line, barrier line, text
  for (const auto& s : r.sites)
    if (s.kind == AccessKind::branch) branches.emplace_back(s.line, s.barrier_line, s.text);
  const std::vector<std::tuple<int, int, std::string>> want = {
      {3, 7, "i >= n"}, {5, 7, "t < n"}, {6, 7, "a[t] < 0.0f"}, {9, 9, "l < 16"}};
  EXPECT_EQ(branches, want);
  const std::string program = r.source.substr(r.source.find("#line 1"));
  EXPECT_NE(program.find("if (__clh_cond(__clh_c, 0, (i >= n) ? 1 : 0, 1)) return;"),
            std::string::npos)
      << program;
  EXPECT_NE(program.find("if (__clh_cond(__clh_c, 3, (l < 16) ? 1 : 0, 0))"), std::string::npos);
  EXPECT_NE(program.find("if (l < 4)"), std::string::npos);
  EXPECT_NE(program.find("if (i + 1 >= n) return;"), std::string::npos);
}

TEST(SanitizeRewrite, ASourceClangCannotParseIsTheToolsErrorAndAnUnknownKernelToo) {
  EXPECT_NE(instrument("__kernel void k( {", "bad.cl", "k", "").error, "");
  EXPECT_NE(instrument(kKernel, "k.cl", "nope", "").error.find("no kernel named"),
            std::string::npos);
}

TEST(SanitizeRewrite, BuildOptionsMacrosReachTheParser) {
  const char* text = "__kernel void k(__global float* a) { a[get_global_id(0)] = TS; }\n";
  EXPECT_NE(instrument(text, "d.cl", "k", "").error, "");
  const auto r = instrument(text, "d.cl", "k", "-D TS=4 -cl-std=CL2.0");
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.sites.size(), 1u);
}

}  // namespace
