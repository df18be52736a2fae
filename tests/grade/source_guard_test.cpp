// Tests of what keeps a submission to its own text (no device): the include refusal in all its
// spellings, the build-log filter, host paths removed, the kernel parameter parser and interface
// comparison, the techniques a `uses:` item asks for, and the grading process's environment.
#include "grade/source_guard.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "cl/devices.hpp"
#include "grade/sandbox.hpp"

namespace clh::grade {
namespace {

TEST(SourceGuard, RefusesEveryWayOfIncludingAFile) {
  for (const char* text : {
           "#include \"/etc/passwd\"\n",
           "#include </etc/passwd>\n",
           "  #  include \"../../kernels/assignments/vadd.cl\"\n",
           "// a comment\n#include \"vadd.cl\"\n",       // even a file beside it
           "#inc\\\nlude \"/etc/passwd\"\n",             // a line splice inside the word
           "#/* a comment */include \"/etc/passwd\"\n",  // a comment between # and the word
           "%:include \"/etc/passwd\"\n",                // the digraph of #
           "?\?=include \"/etc/passwd\"\n",              // the trigraph of #
           "#define F \"/etc/passwd\"\n#include F\n",    // through a macro
           "#include_next <x.h>\n",
           "#import \"x.cl\"\n",
           "#embed \"/etc/passwd\"\n",
           "#if __has_include(\"/etc/shadow\")\n#endif\n",
       }) {
    SCOPED_TRACE(text);
    auto why = refusedSource(text);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("its own text only"), std::string::npos) << *why;
  }
}

TEST(SourceGuard, NamesTheLineOfTheDirective) {
  auto why = refusedSource("// one\n/* two\n three */\n#include \"x\"\n");
  ASSERT_TRUE(why);
  EXPECT_EQ(why->rfind("line 4: '#include' is not allowed", 0), 0u) << *why;
  why = refusedSource("#define A 1 \\\n  + 2\n#include \"x\"\n");
  ASSERT_TRUE(why);
  EXPECT_EQ(why->rfind("line 3:", 0), 0u) << *why;
}

TEST(SourceGuard, LeavesOrdinaryKernelsAlone) {
  for (const char* text : {
           "__kernel void k(global float* a) { a[0] = 1; }\n",
           "// #include \"/etc/passwd\" in a comment\n__kernel void k() {}\n",
           "/* #include <x>\n */ __kernel void k() {}\n",
           "#define STR \"#include\"\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n",
           "#ifdef TS\n#define T TS\n#endif\nint my__has_include_x;\n",
       }) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(refusedSource(text).has_value());
  }
}

TEST(SourceGuard, BuildLogsKeepOnlyTheStudentsFile) {
  const std::string log =
      "alice.cl:5:27: error: expected ';' after expression\n"
      "  int i = get_global_id(0)\n"
      "                          ^\n"
      "/usr/lib/clang/14/include/opencl-c.h:1234:5: note: candidate function\n"
      "root:x:0:0:root:/root:/bin/bash\n"
      "other.cl:1:1: error: secret text here\n"
      "  secret text here\n"
      "error: unknown argument '-secret'\n"
      "1 error generated.\n";
  const std::string kept = studentBuildLog(log, "alice.cl");
  EXPECT_NE(kept.find("alice.cl:5:27: error: expected ';'"), std::string::npos) << kept;
  EXPECT_NE(kept.find("  int i = get_global_id(0)\n"), std::string::npos) << kept;
  EXPECT_NE(kept.find("1 error generated."), std::string::npos) << kept;
  for (const char* host : {"opencl-c.h", "root:x", "secret", "/usr/lib"})
    EXPECT_EQ(kept.find(host), std::string::npos) << host << " in\n" << kept;
  EXPECT_NE(kept.find("(5 lines of the compiler's output not about alice.cl left out)"),
            std::string::npos)
      << kept;
  // clharness's own messages stay.
  const std::string ours =
      "no kernel 'vadd' could be created (CL_INVALID_KERNEL_NAME); the "
      "program has: vad";
  EXPECT_EQ(studentBuildLog(ours, "alice.cl"), ours + "\n");
}

TEST(SourceGuard, HostPathsAreRemoved) {
  EXPECT_EQ(withoutHostPaths("Oclgrind failed at /usr/lib/x86_64/liboclgrind.so:12 (plugin "
                             "'/home/ta/clharness/build/p.so')"),
            "Oclgrind failed at <path>:12 (plugin '<path>')");
  EXPECT_EQ(withoutHostPaths("got 0.5, want 1 / 2 at alice.cl:3"),
            "got 0.5, want 1 / 2 at alice.cl:3");
}

TEST(KernelInterface, ParsesTheParameters) {
  auto ps = kernelParameters(
      "// vadd\n__kernel void other(int x) {}\n"
      "__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void vadd(__global const float* "
      "a, /* b */ global const float *b,\n  __global float* restrict c, const unsigned int count) "
      "{ }\n",
      "vadd");
  ASSERT_TRUE(ps);
  ASSERT_EQ(ps->size(), 4u);
  EXPECT_EQ((*ps)[0].name, "a");
  EXPECT_EQ((*ps)[0].type, "__global const float*");
  EXPECT_EQ((*ps)[1].name, "b");
  EXPECT_EQ((*ps)[2].name, "c");
  EXPECT_EQ((*ps)[3].type, "const unsigned int");
  EXPECT_FALSE(kernelParameters("__kernel void vad(int x) {}", "vadd"));
}

TEST(KernelInterface, SaysHowTheParameterListDiffers) {
  const auto want = *kernelParameters(
      "__kernel void vadd(__global const float* a, __global const float* b, __global float* c, "
      "const unsigned int count) {}",
      "vadd");
  auto diff = [&](const std::string& text) {
    return interfaceDifferences(want, *kernelParameters(text, "vadd"));
  };
  // The same launch, spelled differently: no difference.
  EXPECT_TRUE(diff("kernel void vadd(global float *a, global float* b, global float *c, uint "
                   "count) {}")
                  .empty());
  EXPECT_TRUE(diff("kernel void vadd(global float *x, global float* y, global float *z, int n) {}")
                  .empty());

  auto three = diff("kernel void vadd(global float *a, global float* b, global float *c) {}");
  ASSERT_EQ(three.size(), 1u);
  EXPECT_NE(three[0].find("takes 3 parameters"), std::string::npos) << three[0];
  EXPECT_NE(three[0].find("passes 4"), std::string::npos) << three[0];

  auto order = diff(
      "kernel void vadd(global float *c, global float* a, global float *b, uint "
      "count) {}");
  ASSERT_EQ(order.size(), 1u);
  EXPECT_NE(order[0].find("another order"), std::string::npos) << order[0];
  EXPECT_NE(order[0].find("parameter 1 'c' receives what the assignment calls 'a'"),
            std::string::npos)
      << order[0];

  auto types = diff(
      "kernel void vadd(global float *a, global float* b, local float *c, ulong "
      "count) {}");
  ASSERT_EQ(types.size(), 2u);
  EXPECT_NE(types[0].find("parameter 3 'c' is declared 'local float *'"), std::string::npos)
      << types[0];
  EXPECT_NE(types[1].find("parameter 4 'count' is declared 'ulong'"), std::string::npos)
      << types[1];
}

TEST(Techniques, ReadFromTheCodeNotTheComments) {
  EXPECT_EQ(techniquesUsed("__kernel void k(global float* a) {\n"
                           "  // a barrier(CLK_LOCAL_MEM_FENCE) and __local tiles would help\n"
                           "  a[0] = 1; }"),
            std::set<std::string>{});
  EXPECT_EQ(techniquesUsed("__kernel void k(global float* a) {\n"
                           "  __local float tile[16];\n"
                           "  tile[0] = a[0];\n"
                           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                           "  atomic_add((global int*)a, 1); }"),
            (std::set<std::string>{"atomics", "barrier", "local_memory"}));
  EXPECT_EQ(techniquesUsed("kernel void k(local float* t) { work_group_barrier(0); }"),
            (std::set<std::string>{"barrier", "local_memory"}));
}

TEST(Sandbox, TheGradingProcessGetsOnlyWhatOpenClNeeds) {
  const char* parent[] = {"HOME=/home/ta",
                          "PATH=/home/ta/bin:/usr/bin",
                          "GITHUB_TOKEN=secret",
                          "SSH_AUTH_SOCK=/tmp/ssh-x/agent.1",
                          "CLHARNESS_ROOT=/home/ta/clharness",
                          "OCL_ICD_VENDORS=/tmp/clharness-icd-1000",
                          "OCL_ICD_FILENAMES=/usr/lib/libnvidia-opencl.so.1",
                          "POCL_DEVICES=pthread",
                          "POCL_CACHE_DIR=/home/ta/pocl-cache",
                          "CUDA_VISIBLE_DEVICES=0",
                          "LD_LIBRARY_PATH=/opt/cuda/lib64",
                          "CLHARNESS_OCLGRIND_BUILD=optimised",
                          nullptr};
  auto env = childEnvironment(parent, "/grades/.work-1/alice.pocl");
  auto has = [&](const std::string& var) {
    return std::find(env.begin(), env.end(), var) != env.end();
  };
  for (const char* kept :
       {"OCL_ICD_VENDORS=/tmp/clharness-icd-1000",
        "OCL_ICD_FILENAMES=/usr/lib/libnvidia-opencl.so.1", "POCL_DEVICES=pthread",
        "CUDA_VISIBLE_DEVICES=0", "LD_LIBRARY_PATH=/opt/cuda/lib64",
        "HOME=/grades/.work-1/alice.pocl", "TMPDIR=/grades/.work-1/alice.pocl",
        "PATH=/usr/local/bin:/usr/bin:/bin", "CLHARNESS_ICD_DIR=/tmp/clharness-icd-1000",
        "CLHARNESS_OCLGRIND_BUILD=optimised"})
    EXPECT_TRUE(has(kept)) << kept;
  for (const auto& var : env) {
    EXPECT_EQ(var.find("secret"), std::string::npos) << var;
    EXPECT_EQ(var.find("SSH_AUTH_SOCK"), std::string::npos) << var;
    EXPECT_EQ(var.find("/home/ta"), std::string::npos) << var;
  }
}

TEST(Sandbox, TheGradersDriverSettingsGoWhereTheUserSetNone) {
  const char* bare[] = {"HOME=/home/ta", nullptr};
  const char* own[] = {"POCL_WORK_GROUP_SPECIALIZATION=1", nullptr};
  auto count = [](const std::vector<std::string>& env, const std::string& var) {
    return std::count(env.begin(), env.end(), var);
  };
  // Without a speed item PoCL compiles one work-group function instead of one per local size.
  auto env = childEnvironment(bare, "/g/.work-1/a.pocl", gradingDriverDefaults(false));
  EXPECT_EQ(count(env, "POCL_WORK_GROUP_SPECIALIZATION=0"), 1);
  // A user's own setting wins, once.
  env = childEnvironment(own, "/g/.work-1/a.pocl", gradingDriverDefaults(false));
  EXPECT_EQ(count(env, "POCL_WORK_GROUP_SPECIALIZATION=1"), 1);
  EXPECT_EQ(count(env, "POCL_WORK_GROUP_SPECIALIZATION=0"), 0);
  // A speed item times the code PoCL makes by default.
  env = childEnvironment(bare, "/g/.work-1/a.pocl", gradingDriverDefaults(true));
  for (const auto& var : env) EXPECT_EQ(var.rfind("POCL_WORK_GROUP", 0), std::string::npos) << var;
}

// A device's own driver folder replaces the batch's: the child loads that driver alone and uses
// the folder as it is (the tool's inherited-folder variable), never rewriting it.
TEST(Sandbox, ADevicesDriverFolderReplacesTheBatchs) {
  const char* parent[] = {"OCL_ICD_VENDORS=/tmp/clharness-icd-1000", "POCL_DEVICES=pthread",
                          nullptr};
  const auto env = childEnvironment(parent, "/g/.work-1/a.pocl", {}, "/g/.work-1/drivers.0");
  auto count = [&](const std::string& var) { return std::count(env.begin(), env.end(), var); };
  EXPECT_EQ(count("OCL_ICD_VENDORS=/g/.work-1/drivers.0"), 1);
  EXPECT_EQ(count(std::string(clh::kIcdFolderVariable) + "=/g/.work-1/drivers.0"), 1);
  EXPECT_EQ(count("POCL_DEVICES=pthread"), 1);
  for (const auto& var : env) {
    EXPECT_EQ(var.find("/tmp/clharness-icd-1000"), std::string::npos) << var;
    EXPECT_NE(var.rfind("CLHARNESS_ICD_DIR=", 0), 0u) << var;
  }
}

TEST(Sandbox, RunsInTheFolderGivenWithTheEnvironmentGiven) {
  const std::string dir = ::testing::TempDir();
  setenv("SECRET", "the grader's", 1);  // in the parent only: the child must not see it
  auto end = runSandboxed({"/bin/sh", "-c",
                           "test \"$(pwd -P)\" = \"$(cd \"$D\" && pwd -P)\" && "
                           "test -z \"$SECRET\""},
                          {"D=" + dir, "PATH=/usr/bin:/bin"}, dir, 10);
  ASSERT_TRUE(end.started) << end.error;
  EXPECT_EQ(end.exit_code, 0);
  auto slow = runSandboxed({"/bin/sleep", "5"}, {}, dir, 0.2);
  EXPECT_TRUE(slow.timed_out);
}

}  // namespace
}  // namespace clh::grade
