// The sanitizer's rewrite on clang's syntax tree: which accesses become sites (kind, line, space),
// what is reported as not looked at, and the shape of the instrumented program.
#include "sanitize/rewrite.hpp"

#include <gtest/gtest.h>

#include <string>

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
  vstore4((float4)(0.0f), 1, a);
}
)CL";
  const auto r = instrument(text, "m.cl", "k", "");
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.sites.empty());
  ASSERT_EQ(r.unchecked.size(), 2u);
  EXPECT_EQ(r.unchecked[0].line, 3);
  EXPECT_NE(r.unchecked[0].why.find("macro"), std::string::npos);
  EXPECT_EQ(r.unchecked[1].line, 4);
  EXPECT_NE(r.unchecked[1].why.find("vstore4"), std::string::npos);
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
  EXPECT_NE(program.find("__clh_c0.on = 0;"), std::string::npos);  // the other kernel: off
  EXPECT_NE(program.find("__clh_barrier(CLK_LOCAL_MEM_FENCE)"), std::string::npos);
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
