// Tests of what the feedback adds from the student's text: the declaration of an uninitialized
// variable, the address space of an out-of-bounds finding, and the hint that fits that space.
#include "grade/explain.hpp"

#include <gtest/gtest.h>

#include "grade/report.hpp"

namespace clh::grade {
namespace {

const char* kKernel = R"(// float commented; is not code
__kernel void k(__global float* out, const int n, __local float* sums,
                __global const float* in) {
  int i = get_global_id(0);
  float sum;
  float ok = 0.0f, later;
  __local float tile[16];
  out[i] = sum + ok;
  out[i] = tile[i] + sums[i] + in[i] + n;
  out[i] = later + commented;
  {
    float sum = 1.0f;
    out[i] = sum;
  }
}
)";

std::vector<std::string> names(const std::vector<Declaration>& ds) {
  std::vector<std::string> out;
  for (const auto& d : ds) out.push_back(d.name + ":" + std::to_string(d.line));
  return out;
}

TEST(UninitializedDeclarations, FindsTheVariableDeclaredWithoutAValue) {
  EXPECT_EQ(names(uninitializedDeclarations(kKernel, 8)), std::vector<std::string>{"sum:5"})
      << "ok has a value; out is a global parameter";
  auto ds = uninitializedDeclarations(kKernel, 8);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].text, "float sum;");
}

TEST(UninitializedDeclarations, LocalArraysAndLocalPointerParametersStartUnwritten) {
  EXPECT_EQ(names(uninitializedDeclarations(kKernel, 9)),
            (std::vector<std::string>{"tile:7", "sums:2"}))
      << "in and n hold what the host passed";
}

TEST(UninitializedDeclarations, SecondDeclaratorsCommentsAndShadowing) {
  EXPECT_EQ(names(uninitializedDeclarations(kKernel, 10)), std::vector<std::string>{"later:6"})
      << "a declaration in a comment is not one";
  EXPECT_TRUE(uninitializedDeclarations(kKernel, 13).empty())
      << "the nearest declaration of sum has a value";
  EXPECT_TRUE(uninitializedDeclarations(kKernel, 99).empty());
  EXPECT_TRUE(uninitializedDeclarations("", 1).empty());
}

TEST(UninitializedDeclarations, TheFindingPointsAtTheUseAndTheDeclaration) {
  Finding f;
  f.kind = FindingKind::uninitialized;
  f.summary = "Uninitialized value written to global memory at k.cl:8 in kernel k";
  f.lines = {{"k.cl", 8, "out[i] = sum + ok;"}};
  pointAtDeclaration(f, kKernel, "k.cl");
  ASSERT_EQ(f.lines.size(), 2u);
  EXPECT_EQ(f.lines[1].line, 5);
  EXPECT_EQ(f.lines[1].file, "k.cl");
  EXPECT_EQ(f.lines[1].text, "float sum;");
  EXPECT_NE(f.summary.find("declared without an initial value: `sum` (line 5)"), std::string::npos)
      << f.summary;

  Finding other = f;
  other.kind = FindingKind::race;
  other.lines.resize(1);
  pointAtDeclaration(other, kKernel, "k.cl");
  EXPECT_EQ(other.lines.size(), 1u) << "only uninitialized findings";
}

TEST(AddressSpace, EveryOutOfBoundsFindingSaysWhichMemory) {
  Finding guard;
  guard.kind = FindingKind::out_of_bounds;
  guard.summary =
      "buffer 'c' was written outside its 4 bytes: byte 0 past its end (element 1) "
      "(guard zone)";
  nameAddressSpace(guard);
  EXPECT_EQ(guard.address_space, "global");
  EXPECT_NE(guard.summary.find("(guard zone, global memory)"), std::string::npos);

  Finding array;
  array.kind = FindingKind::out_of_bounds;
  array.summary = "Index (4) exceeds static array size (4) at k.cl:3";
  array.address_space = "private";
  nameAddressSpace(array);
  EXPECT_NE(array.summary.find("(private memory)"), std::string::npos) << array.summary;

  Finding named = array;
  named.summary = "Invalid read of size 4 at local memory at k.cl:3";
  named.address_space = "local";
  nameAddressSpace(named);
  EXPECT_EQ(named.summary, "Invalid read of size 4 at local memory at k.cl:3") << "said once";
}

TEST(AddressSpace, TheHintFitsTheMemorySpace) {
  const std::string local = hintFor(FindingKind::out_of_bounds, "local");
  const std::string global = hintFor(FindingKind::out_of_bounds, "global");
  EXPECT_NE(local, global);
  EXPECT_NE(local.find("`__local` array"), std::string::npos);
  EXPECT_EQ(local.find("rounded up"), std::string::npos);
  EXPECT_NE(global.find("rounded up"), std::string::npos);
  EXPECT_NE(hintFor(FindingKind::out_of_bounds, "private").find("declared inside the kernel"),
            std::string::npos);
  EXPECT_EQ(hintFor(FindingKind::out_of_bounds, ""), hintFor(FindingKind::out_of_bounds));
  EXPECT_EQ(hintFor(FindingKind::race, "local"), hintFor(FindingKind::race));

  ItemGrade item{"clean", "Clean", ItemCheck::simulator, false, 0, 30, {}, true, "", false, "", {}};
  item.kinds = {FindingKind::out_of_bounds};
  Evidence e;
  e.device = "Oclgrind: Oclgrind Simulator";
  Finding f;
  f.kind = FindingKind::out_of_bounds;
  f.address_space = "local";
  f.summary = "Invalid read of size 4 at local memory";
  e.findings = {f};
  item.evidence = {e};
  const std::string md = itemMarkdown(item);
  EXPECT_NE(md.find("*Hint (local memory):* " + local), std::string::npos) << md;
  EXPECT_EQ(md.find(global), std::string::npos) << md;
}

}  // namespace
}  // namespace clh::grade
