// Parser tests: logs captured from real Oclgrind runs of tests/sim/kernels (tests/sim/data, made by
// capture_oclgrind_golden) and a few hand-written lines for the paths real runs rarely take.
#include "sim/oclgrind_log.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using clh::Finding;
using clh::FindingKind;

std::ifstream golden(const std::string& name) {
  std::ifstream in(std::string(CLHARNESS_SIM_DATA_DIR) + "/" + name);
  EXPECT_TRUE(in.good()) << "missing golden input " << name;
  return in;
}

clh::OclgrindLog parseGolden(const std::string& name,
                             const clh::OclgrindParseOptions& options = {}) {
  std::ifstream in = golden(name);
  return clh::parseOclgrindLogDetailed(in, options);
}

std::vector<Finding> parseText(const std::string& text,
                               const clh::OclgrindParseOptions& options = {}) {
  std::istringstream in(text);
  return clh::parseOclgrindLog(in, options);
}

std::set<int> lineNumbers(const Finding& finding) {
  std::set<int> out;
  for (const clh::SourceLine& line : finding.lines) out.insert(line.line);
  return out;
}

TEST(OclgrindLog, MissingBarrierGivesTwoLocalReadWriteRaces) {
  // The tiled matmul (N=4, TS=2) without its second barrier: every report pairs the inner-product
  // load (line 15) with one of the two tile stores (lines 11 and 12).
  const clh::OclgrindLog log = parseGolden("race_local_read_write.jsonl");
  ASSERT_EQ(log.launches.size(), 1u);
  const clh::OclgrindLaunch& launch = log.launches[0];
  EXPECT_EQ(launch.kernel, "mmul");
  EXPECT_TRUE(launch.ended);
  EXPECT_EQ(launch.work_dim, 2);
  EXPECT_EQ(launch.global_size, (std::array<uint64_t, 3>{4, 4, 1}));
  EXPECT_EQ(launch.local_size, (std::array<uint64_t, 3>{2, 2, 1}));
  EXPECT_FALSE(launch.singleItemGroups());
  ASSERT_TRUE(log.checks.has_value());
  EXPECT_TRUE(log.checks->data_races);
  EXPECT_TRUE(log.malformed.empty());

  ASSERT_EQ(launch.findings.size(), 2u);
  std::set<std::set<int>> pairs;
  for (const Finding& finding : launch.findings) {
    EXPECT_EQ(finding.kind, FindingKind::race);
    EXPECT_EQ(finding.address_space, "local");
    EXPECT_EQ(finding.kernel, "mmul");
    ASSERT_EQ(finding.lines.size(), 2u);
    pairs.insert(lineNumbers(finding));
    EXPECT_EQ(finding.summary.rfind("Read-write data race at local memory between input.cl:", 0),
              0u)
        << finding.summary;
    EXPECT_NE(finding.summary.find("in kernel mmul (16 reports)"), std::string::npos)
        << finding.summary;
    EXPECT_EQ(finding.raw.rfind("Read-write data race at local memory address 0x", 0), 0u);
    // Both entities of the first report, then others, up to the default of four.
    ASSERT_GE(finding.work_items.size(), 2u);
    EXPECT_LE(finding.work_items.size(), 4u);
    EXPECT_EQ(finding.work_items[0].rfind("global(", 0), 0u) << finding.work_items[0];
    EXPECT_NE(finding.work_items[0].find(" local("), std::string::npos);
    EXPECT_NE(finding.work_items[0].find(" group("), std::string::npos);
  }
  EXPECT_EQ(pairs, (std::set<std::set<int>>{{11, 15}, {12, 15}}));

  // The source text of each line comes with it.
  for (const clh::SourceLine& line : launch.findings[0].lines) {
    if (line.line == 15) {
      EXPECT_EQ(line.text, "acc += Awrk[li * TS + k] * Bwrk[k * TS + lj];");
    } else if (line.line == 11) {
      EXPECT_EQ(line.text, "Awrk[li * TS + lj] = A[i * N + t * TS + lj];");
    } else {
      EXPECT_EQ(line.text, "Bwrk[li * TS + lj] = B[(t * TS + li) * N + j];");
    }
  }
}

TEST(OclgrindLog, WithoutMergingEveryReportIsAFinding) {
  clh::OclgrindParseOptions options;
  options.merge = false;
  const clh::OclgrindLog log = parseGolden("race_local_read_write.jsonl", options);
  ASSERT_EQ(log.launches.size(), 1u);
  EXPECT_EQ(log.launches[0].findings.size(), 32u);  // the log holds 32 messages
  for (const Finding& finding : log.launches[0].findings) {
    EXPECT_EQ(finding.summary.find("reports"), std::string::npos);
  }
}

TEST(OclgrindLog, WriteWriteRaceOnOneLocalSlot) {
  std::ifstream in = golden("race_local_write_write.jsonl");
  const std::vector<Finding> findings = clh::parseOclgrindLog(in);
  ASSERT_EQ(findings.size(), 1u);
  const Finding& race = findings[0];
  EXPECT_EQ(race.kind, FindingKind::race);
  EXPECT_EQ(race.address_space, "local");
  EXPECT_EQ(race.kernel, "last_writer");
  ASSERT_EQ(race.lines.size(), 2u);
  EXPECT_EQ(race.lines[0].line, 4);
  EXPECT_EQ(race.lines[1].line, 4);
  EXPECT_EQ(race.lines[0].text, "slot[0] = lid;");
  EXPECT_EQ(race.summary,
            "Write-write data race at local memory at input.cl:4 (both accesses) in kernel "
            "last_writer (14 reports)");
  // Reported by both work-groups; the first report is Global(1) against Global(0).
  EXPECT_EQ(race.work_items.size(), 4u);
  EXPECT_EQ(race.work_items[0], "global(1,0,0) local(1,0,0) group(0,0,0)");
  EXPECT_EQ(race.work_items[1], "global(0,0,0) local(0,0,0) group(0,0,0)");
}

TEST(OclgrindLog, GlobalRaceBetweenWorkGroupsReportedAtKernelEnd) {
  // Reported from kernelEnd, where Oclgrind has no current work-item: all comes from the text.
  std::ifstream in = golden("race_global_write_write.jsonl");
  const std::vector<Finding> findings = clh::parseOclgrindLog(in);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::race);
  EXPECT_EQ(findings[0].address_space, "global");
  EXPECT_EQ(findings[0].kernel, "group_writer");
  ASSERT_EQ(findings[0].lines.size(), 2u);
  EXPECT_EQ(findings[0].lines[0].line, 5);
  EXPECT_EQ(findings[0].lines[0].text, "out[0] = (int)get_group_id(0);");
  EXPECT_EQ(findings[0].summary,
            "Write-write data race at global memory at input.cl:5 (both accesses) in kernel "
            "group_writer (3 reports)");
  EXPECT_EQ(findings[0].work_items[0], "global(8,0,0) local(0,0,0) group(1,0,0)");
  EXPECT_EQ(findings[0].work_items[1], "global(0,0,0) local(0,0,0) group(0,0,0)");
}

TEST(OclgrindLog, InvalidWriteIsOutOfBoundsWithWorkItemAndLine) {
  clh::OclgrindParseOptions options;
  options.source_file = "tests/sim/kernels/out_of_bounds.cl";
  options.device = "Oclgrind: Oclgrind Simulator";
  std::ifstream in = golden("out_of_bounds_write.jsonl");
  const std::vector<Finding> findings = clh::parseOclgrindLog(in, options);
  ASSERT_EQ(findings.size(), 1u);
  const Finding& oob = findings[0];
  EXPECT_EQ(oob.kind, FindingKind::out_of_bounds);
  EXPECT_EQ(oob.address_space, "global");
  EXPECT_EQ(oob.kernel, "shift_write");
  EXPECT_EQ(oob.device, "Oclgrind: Oclgrind Simulator");
  ASSERT_EQ(oob.work_items.size(), 1u);
  EXPECT_EQ(oob.work_items[0], "global(15,0,0) local(7,0,0) group(1,0,0)");
  ASSERT_EQ(oob.lines.size(), 1u);
  EXPECT_EQ(oob.lines[0].file, "tests/sim/kernels/out_of_bounds.cl");
  EXPECT_EQ(oob.lines[0].line, 4);
  EXPECT_EQ(oob.lines[0].text, "out[gid + 1] = (float)gid;");
  EXPECT_EQ(oob.summary,
            "Invalid write of size 4 at global memory at tests/sim/kernels/out_of_bounds.cl:4 in "
            "kernel shift_write");
  EXPECT_NE(oob.raw.find("Entity: Global(15,0,0)"), std::string::npos);
}

TEST(OclgrindLog, UninitializedValueIsAWarningFinding) {
  std::ifstream in = golden("uninitialized_local.jsonl");
  const std::vector<Finding> findings = clh::parseOclgrindLog(in);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::uninitialized);
  EXPECT_EQ(findings[0].address_space, "global");  // where the uninitialized value was stored
  ASSERT_EQ(findings[0].lines.size(), 1u);
  EXPECT_EQ(findings[0].lines[0].line, 5);
  EXPECT_NE(findings[0].summary.find("(16 reports)"), std::string::npos) << findings[0].summary;
}

TEST(OclgrindLog, BarrierDivergenceNamesGroupsAndBarrierLine) {
  std::ifstream in = golden("barrier_divergence.jsonl");
  const std::vector<Finding> findings = clh::parseOclgrindLog(in);
  ASSERT_EQ(findings.size(), 1u);
  const Finding& divergence = findings[0];
  EXPECT_EQ(divergence.kind, FindingKind::divergence);
  EXPECT_EQ(divergence.address_space, "");
  ASSERT_EQ(divergence.lines.size(), 1u);
  EXPECT_EQ(divergence.lines[0].line, 5);
  EXPECT_EQ(divergence.lines[0].text, "barrier(CLK_LOCAL_MEM_FENCE);");
  EXPECT_EQ(divergence.work_items, (std::vector<std::string>{"group(0,0,0)", "group(1,0,0)"}));
  EXPECT_EQ(divergence.summary,
            "Work-group divergence detected (barrier): Only 4 out of 8 work-items executed barrier "
            "at input.cl:5 in kernel half_barrier (2 reports)");
}

TEST(OclgrindLog, ApiErrorFromTheContextCallbackIsOutsideLaunches) {
  const clh::OclgrindLog log = parseGolden("api_error_work_group_size.jsonl");
  EXPECT_TRUE(log.launches.empty());
  ASSERT_EQ(log.outside_launches.size(), 1u);
  const Finding& api = log.outside_launches[0];
  EXPECT_EQ(api.kind, FindingKind::api_error);
  EXPECT_EQ(api.summary,
            "OpenCL API error in clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE "
            "(local_work_size[0]=3 does not divide global_work_size[0]=16)");
}

TEST(OclgrindLog, CorrectKernelGivesNoFinding) {
  const clh::OclgrindLog log = parseGolden("correct_tiled_matmul.jsonl");
  ASSERT_EQ(log.launches.size(), 1u);
  EXPECT_TRUE(log.launches[0].ended);
  EXPECT_EQ(log.plugin_loads, 1);
  EXPECT_TRUE(log.allFindings().empty());
}

TEST(OclgrindLog, StructuredFieldsFillInWhatTheTextLacks) {
  const std::string line =
      R"({"v":1,"event":"message","pid":1,"context":1,"launch":3,"kernel":"k","type":"error",)"
      R"("text":"Invalid read of size 4","work_item":{"global":[5,1,0],"local":[1,1,0]},)"
      R"("work_group":[1,0,0],"location":{"line":9,"column":3,"file":"input.cl",)"
      R"("source":"    x = p[i];"},"address_space":"constant"})";
  const std::vector<Finding> findings = parseText(line + "\n");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::out_of_bounds);
  EXPECT_EQ(findings[0].kernel, "k");
  EXPECT_EQ(findings[0].address_space, "constant");
  EXPECT_EQ(findings[0].work_items,
            (std::vector<std::string>{"global(5,1,0) local(1,1,0) group(1,0,0)"}));
  ASSERT_EQ(findings[0].lines.size(), 1u);
  EXPECT_EQ(findings[0].lines[0].line, 9);
  EXPECT_EQ(findings[0].lines[0].text, "x = p[i];");
}

TEST(OclgrindLog, AnOutOfBoundsAccessInLocalOrPrivateMemoryNamesItsArray) {
  // The plugin's "array" field: the __local or private array the access was derived from.
  auto line = [](const std::string& text, const std::string& array) {
    return R"({"v":1,"event":"message","pid":1,"context":1,"launch":1,"kernel":"k","type":"error",)"
           R"("text":")" +
           text + R"(","location":{"line":9,"column":3,"file":"input.cl"},"array":)" + array +
           "}\n";
  };
  const std::vector<Finding> findings = parseText(
      line("Invalid write of size 4 at local memory address 0x1000000000064",
           R"({"name":"L","type":"int[25]","line":5,"address_space":"local","size":100,)"
           R"("offset":100})") +
      line("Invalid read of size 4 at private memory address 0x0",
           R"({"name":"p","line":3,"address_space":"private","size":16,"offset":-4})") +
      line("Index (12) exceeds static array size (10)",
           R"({"name":"T","type":"int[10][10]","address_space":"local","size":400,"offset":48})") +
      line("Invalid write of size 4 at local memory address 0x2000000000010",
           R"({"argument":2,"name":"scratch","address_space":"local","size":16})"));
  ASSERT_EQ(findings.size(), 4u);
  EXPECT_EQ(findings[0].summary,
            "Invalid write of size 4 at local memory, past the end of __local array 'L' (int[25], "
            "100 bytes, declared at line 5) at input.cl:9 in kernel k");
  EXPECT_EQ(findings[1].summary,
            "Invalid read of size 4 at private memory, before the start of private array 'p' (16 "
            "bytes, declared at line 3) at input.cl:9 in kernel k");
  EXPECT_EQ(findings[2].summary,
            "Index (12) exceeds static array size (10), in __local array 'T' (int[10][10], 400 "
            "bytes) at input.cl:9 in kernel k");
  EXPECT_EQ(findings[3].summary,
            "Invalid write of size 4 at local memory, in __local argument 'scratch' (16 bytes) at "
            "input.cl:9 in kernel k");
  for (const Finding& f : findings) EXPECT_EQ(f.kind, FindingKind::out_of_bounds) << f.summary;
}

TEST(OclgrindLog, OneStatementsStaticIndexReportsAtManyIndicesAreOneFinding) {
  auto line = [](int index, int at) {
    return R"x({"v":1,"event":"message","pid":1,"context":1,"launch":1,"kernel":"k",)x"
           R"x("type":"error","text":"Index ()x" +
           std::to_string(index) + R"x() exceeds static array size (10)","location":{"line":)x" +
           std::to_string(at) + R"x(,"column":3,"file":"input.cl"}})x" + "\n";
  };
  const std::vector<Finding> findings =
      parseText(line(10, 6) + line(11, 6) + line(12, 6) + line(10, 7));
  ASSERT_EQ(findings.size(), 2u);  // line 6 three times, line 7 once
  EXPECT_EQ(findings[0].summary,
            "Index (10) exceeds static array size (10) at input.cl:6 in kernel k (3 reports)");
  EXPECT_EQ(findings[1].lines.at(0).line, 7);
}

TEST(OclgrindLog, ALineWithRepeatsStandsForThatManyReports) {
  // The plugin writes a problem's first reports at one instruction, then one line for the rest.
  const std::string report =
      R"x({"v":1,"event":"message","pid":1,"context":1,"launch":1,"kernel":"k","type":"warning",)x"
      R"x("text":"Uninitialized value written to global memory address 0x1000000000040",)x"
      R"x("location":{"line":5,"column":3,"file":"input.cl"})x";
  const std::vector<Finding> findings =
      parseText(report + "}\n" + report + "}\n" + report + R"x(,"repeats":1022})x" + "\n");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].summary.find("(1024 reports)"), std::string::npos) << findings[0].summary;
}

TEST(OclgrindLog, FatalErrorInsideAKernelIsATool_error) {
  const std::string line =
      R"({"v":1,"event":"message","pid":1,"context":1,"launch":1,"kernel":"k","type":"error",)"
      R"("text":"OCLGRIND FATAL ERROR (./src/core/WorkItem.cpp:1681)\nUnsupported intrinsic llvm.foo\n"})";
  const std::vector<Finding> findings = parseText(line + "\n");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::tool_error);
  EXPECT_EQ(findings[0].summary, "Oclgrind failed: Unsupported intrinsic llvm.foo in kernel k");
}

TEST(OclgrindLog, DamagedLinesBecomeOneToolError) {
  const std::string text =
      "not json\n"
      R"({"v":99,"event":"message","type":"error","text":"Invalid write"})"
      "\n"
      R"({"v":1,"event":"message","launch":null,"type":"info","text":"just saying"})"
      "\n";
  std::istringstream in(text);
  const clh::OclgrindLog log = clh::parseOclgrindLogDetailed(in);
  EXPECT_EQ(log.malformed.size(), 2u);  // the info message is skipped, not malformed
  const std::vector<Finding> findings = log.allFindings();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::tool_error);
  EXPECT_EQ(findings[0].raw, "not json");
}

TEST(OclgrindLog, LaunchWithoutEndIsReportedAsUnfinished) {
  const std::string text =
      R"({"v":1,"event":"kernel_begin","pid":4,"context":1,"launch":7,"kernel":"k","work_dim":1,)"
      R"("global_size":[8,1,1],"local_size":[1,1,1],"global_offset":[0,0,0]})"
      "\n";
  std::istringstream in(text);
  const clh::OclgrindLog log = clh::parseOclgrindLogDetailed(in);
  ASSERT_EQ(log.launches.size(), 1u);
  EXPECT_EQ(log.launches[0].id, 7);
  EXPECT_EQ(log.launches[0].pid, 4);
  EXPECT_FALSE(log.launches[0].ended);
  EXPECT_TRUE(log.launches[0].singleItemGroups());
}

TEST(OclgrindLog, ClassifiesEveryKnownWording) {
  EXPECT_EQ(clh::classifyOclgrindMessage("Read-write data race at global memory address 0x1"),
            FindingKind::race);
  EXPECT_EQ(clh::classifyOclgrindMessage("Write-write data race at local memory address 0x1"),
            FindingKind::race);
  EXPECT_EQ(clh::classifyOclgrindMessage("Invalid read of size 4 at global memory address 0x1"),
            FindingKind::out_of_bounds);
  EXPECT_EQ(clh::classifyOclgrindMessage("Uninitialized value written to global memory address"),
            FindingKind::uninitialized);
  EXPECT_EQ(clh::classifyOclgrindMessage("Controlflow depends on uninitialized value"),
            FindingKind::uninitialized);
  EXPECT_EQ(clh::classifyOclgrindMessage("Work-group divergence detected (barrier)"),
            FindingKind::divergence);
  EXPECT_EQ(clh::classifyOclgrindMessage("\nOclgrind - OpenCL runtime error detected\n\tX"),
            FindingKind::api_error);
  EXPECT_EQ(clh::classifyOclgrindMessage("OCLGRIND FATAL ERROR (x.cpp:1)\nboom"),
            FindingKind::tool_error);
  EXPECT_EQ(clh::classifyOclgrindMessage("Unaligned address on vector store"),
            FindingKind::misaligned);
  EXPECT_EQ(clh::classifyOclgrindMessage("Index (2) exceeds static array size (2)"),
            FindingKind::out_of_bounds);
  EXPECT_EQ(clh::classifyOclgrindMessage("Invalid write to read-only buffer"),
            FindingKind::access_mode);
  EXPECT_EQ(clh::classifyOclgrindMessage("Invalid read from write-only buffer"),
            FindingKind::access_mode);
  EXPECT_EQ(clh::classifyOclgrindMessage(
                "Invalid memory load - source pointer is not aligned to the pointed type"),
            FindingKind::misaligned);
  EXPECT_EQ(clh::classifyOclgrindMessage("Work-item finished without waiting for events"),
            FindingKind::missing_wait);
  EXPECT_EQ(clh::classifyOclgrindMessage("Invalid wait event"), FindingKind::api_error);
  EXPECT_EQ(clh::classifyOclgrindMessage("Work-group divergence detected (async copy)"),
            FindingKind::divergence);
  EXPECT_EQ(clh::classifyOclgrindMessage("Something Oclgrind never said"), FindingKind::other);
}

// docs/races.md's table of messages lists every rule, with its kind, in the order they apply.
TEST(OclgrindLog, TheDocumentedTableIsTheRulesTable) {
  std::ifstream in(std::string(CLHARNESS_SOURCE_ROOT) + "/docs/races.md");
  ASSERT_TRUE(in);
  std::vector<std::string> rows;
  bool inTable = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| Oclgrind's first line (lower-cased)", 0) == 0)
      inTable = true;
    else if (inTable && line.rfind("|", 0) != 0)
      break;
    else if (inTable && line.rfind("| ---", 0) != 0)
      rows.push_back(line);
  }
  const auto& rules = clh::oclgrindMessageRules();
  ASSERT_EQ(rows.size(), rules.size() + 1);  // + the row of `other`
  for (size_t i = 0; i < rules.size(); ++i) {
    const std::string want = std::string("| ") + (rules[i].at_start ? "starts with" : "contains") +
                             " `" + rules[i].text + "` | `" +
                             std::string(clh::toString(rules[i].kind)) + "` |";
    EXPECT_EQ(rows[i].rfind(want, 0), 0u) << "row " << i << ": " << rows[i] << "\nwant " << want;
  }
  EXPECT_EQ(rows.back().rfind("| anything else | `other` |", 0), 0u) << rows.back();
}

}  // namespace
