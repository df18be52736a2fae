// Mutant generation: which calls are found (not in comments, strings, members or declarations),
// what each mutant looks like, and that every line keeps its number.
#include "audit/mutants.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace {

using clh::audit::findSyncCalls;
using clh::audit::removeCall;

int lines(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

// The line `n` (1-based) of `s`.
std::string line(const std::string& s, int n) {
  size_t pos = 0;
  for (int i = 1; i < n; ++i) pos = s.find('\n', pos) + 1;
  return s.substr(pos, s.find('\n', pos) - pos);
}

TEST(Mutants, FindsEachCallWithItsLineAndText) {
  std::string src =
      "__kernel void k(__local float* t) {\n"             // 1
      "  t[0] = 1;\n"                                     // 2
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"                 // 3
      "  mem_fence( CLK_GLOBAL_MEM_FENCE );\n"            // 4
      "  work_group_barrier(CLK_LOCAL_MEM_FENCE,\n"       // 5
      "                     memory_scope_work_group);\n"  // 6
      "}\n";
  auto calls = findSyncCalls(src);
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0].index, 1);
  EXPECT_EQ(calls[0].function, "barrier");
  EXPECT_EQ(calls[0].line, 3);
  EXPECT_EQ(calls[0].column, 3);
  EXPECT_EQ(calls[0].text, "barrier(CLK_LOCAL_MEM_FENCE)");
  EXPECT_EQ(calls[1].function, "mem_fence");
  EXPECT_EQ(calls[1].line, 4);
  EXPECT_EQ(calls[1].text, "mem_fence(CLK_GLOBAL_MEM_FENCE)");  // spaces inside parentheses go
  EXPECT_EQ(calls[2].function, "work_group_barrier");
  EXPECT_EQ(calls[2].line, 5);
  EXPECT_EQ(calls[2].text, "work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group)");
  EXPECT_EQ(src.substr(calls[0].begin, calls[0].end - calls[0].begin),
            "barrier(CLK_LOCAL_MEM_FENCE)");
}

TEST(Mutants, SkipsCommentsStringsMembersAndDeclarations) {
  std::string src =
      "// barrier(CLK_LOCAL_MEM_FENCE); in a line comment\n"       // 1
      "/* barrier(CLK_LOCAL_MEM_FENCE);\n"                         // 2
      "   mem_fence(CLK_LOCAL_MEM_FENCE); */\n"                    // 3
      "void barrier(cl_mem_fence_flags flags);\n"                  // 4: a declaration
      "__constant char* s = \"barrier(CLK_LOCAL_MEM_FENCE);\";\n"  // 5
      "__constant char c = 'b'; // '\n"                            // 6
      "__kernel void k(__global struct S* p) {\n"                  // 7
      "  p->barrier(1); p[0].mem_fence(2);\n"                      // 8: members
      "  int barrier_count = 0; barrier_count++;\n"                // 9: a longer name
      "  if (p) barrier(CLK_GLOBAL_MEM_FENCE);\n"                  // 10: the only call
      "  else wait_group_events(1, &e);\n"                         // 11: after `else`: a call
      "}\n";
  auto calls = findSyncCalls(src);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].line, 10);
  EXPECT_EQ(calls[0].text, "barrier(CLK_GLOBAL_MEM_FENCE)");
  EXPECT_EQ(calls[1].line, 11);
  EXPECT_EQ(calls[1].function, "wait_group_events");
  EXPECT_EQ(calls[1].text, "wait_group_events(1, &e)");
}

TEST(Mutants, SeveralCallsOnOneLineAreSeparateMutants) {
  std::string src =
      "void f() {\n  barrier(CLK_LOCAL_MEM_FENCE); barrier(CLK_GLOBAL_MEM_FENCE);\n}\n";
  auto calls = findSyncCalls(src);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].line, 2);
  EXPECT_EQ(calls[1].line, 2);
  EXPECT_EQ(calls[0].column, 3);
  EXPECT_EQ(calls[1].column, 33);
  std::string first = removeCall(src, calls[0]), second = removeCall(src, calls[1]);
  EXPECT_EQ(line(first, 2), "  /* barrier removed */(void)0; barrier(CLK_GLOBAL_MEM_FENCE);");
  EXPECT_EQ(line(second, 2), "  barrier(CLK_LOCAL_MEM_FENCE); /* barrier removed */(void)0;");
}

TEST(Mutants, RemovalKeepsEveryLineNumber) {
  std::string src =
      "__kernel void k(__local float* t) {\n"  // 1
      "  t[get_local_id(0)] = 1;\n"            // 2
      "  barrier(CLK_LOCAL_MEM_FENCE |\n"      // 3
      "          /* both */\n"                 // 4
      "          CLK_GLOBAL_MEM_FENCE);\n"     // 5
      "  float x = t[0];\n"                    // 6
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"      // 7
      "}\n";
  auto calls = findSyncCalls(src);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].text, "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)");
  std::string m = removeCall(src, calls[0]);
  EXPECT_EQ(lines(m), lines(src));
  EXPECT_EQ(line(m, 3), "  /* barrier removed */(void)0");
  EXPECT_EQ(line(m, 5), ";");
  EXPECT_EQ(line(m, 6), "  float x = t[0];");
  EXPECT_EQ(line(m, 7), "  barrier(CLK_LOCAL_MEM_FENCE);");
  // The mutant has one call fewer, and the other keeps its line.
  auto left = findSyncCalls(m);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].line, 7);
}

TEST(Mutants, ACallInAMacroKeepsTheMacroContinued) {
  std::string src =
      "#define SYNC barrier(CLK_LOCAL_MEM_FENCE \\\n"  // 1
      "                     )\n"                       // 2
      "#ifdef barrier\n"                               // 3: not a call
      "#endif\n"                                       // 4
      "__kernel void k() { SYNC; }\n";                 // 5
  auto calls = findSyncCalls(src);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].line, 1);
  std::string m = removeCall(src, calls[0]);
  EXPECT_EQ(line(m, 1), "#define SYNC /* barrier removed */(void)0\\");
  EXPECT_EQ(lines(m), lines(src));
  EXPECT_EQ(line(m, 5), "__kernel void k() { SYNC; }");
}

TEST(Mutants, UnclosedCallIsIgnored) {
  EXPECT_TRUE(findSyncCalls("void f() { barrier(CLK_LOCAL_MEM_FENCE; }\n").empty());
  EXPECT_TRUE(findSyncCalls("void f() { barrier }\n").empty());
}

TEST(Mutants, CatalogKernelMulLocal) {
  // The seed's question is about this kernel: both of its barriers must be found, on their lines.
  std::string path = std::string(CLHARNESS_SOURCE_ROOT) + "/kernels/intermediate/mul_local.cl";
  FILE* f = std::fopen(path.c_str(), "rb");
  ASSERT_NE(f, nullptr) << path;
  std::string src;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) src.append(buf, n);
  std::fclose(f);
  auto calls = findSyncCalls(src);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].line, 34);
  EXPECT_EQ(calls[1].line, 38);
  EXPECT_EQ(clh::audit::mutantLabel(calls[1]), "without barrier #2 (line 38)");
}

}  // namespace
