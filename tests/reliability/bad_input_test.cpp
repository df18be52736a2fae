// Tests of the tool against broken and hostile input (issue 32): options out of range, a replay
// naming no parameter, spec values that cannot be evaluated, a merge of an interrupted report,
// a report that cannot be written (a folder, a full disk), --resume over an edited kernel,
// grading into a disk with no room, a kernel that crashes the compiler, and a launch child's time
// limit named; issue 43's: a hostile --device pattern, a replay leaving out a parameter and
// --timeout 0's bound. Each probe is the issue's; PoCL where a run is needed, and a
// full disk made with a small tmpfs in a user namespace (skipped where unshare cannot).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "reliability/pocl_support.hpp"
#include "support/tool_run.hpp"

namespace fs = std::filesystem;
using namespace clh::test;
using reliability::kPocl;
using reliability::kSpecs;

namespace {

const std::string kRoot = CLHARNESS_SOURCE_ROOT;
const std::string kQuick = kSpecs + "/quick/quick_a.yaml";
const std::string kVaddSubmission = kRoot + "/tests/grade/submissions/vadd/off_by_one.cl";

std::string inputScratch(const std::string& name) {
  return reliability::scratch("clh-bad-input-", name);
}

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `clharness ARGS` with `dir` a fresh tmpfs of `size` (a full disk), in a mount and user
// namespace of its own; nullopt where this machine cannot make one.
std::optional<ToolRun> onSmallDisk(const std::string& dir, const std::string& size,
                                   const std::string& args) {
  static const bool can =
      std::system("unshare -Urm sh -c 'mount -t tmpfs -o size=64k tmpfs /mnt' >/dev/null 2>&1") ==
      0;
  if (!can) return std::nullopt;
  const std::string script = "mount -t tmpfs -o size=" + size + " tmpfs '" + dir + "' && exec " +
                             std::string(CLHARNESS_TOOL) + " " + args;
  // The tool's path goes inside the script: runToolWithEnv puts its "env" part before it.
  ToolRun r;
  const std::string cmd = "unshare -Urm sh -c \"" + script + "\" 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return std::nullopt;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// The probes: `--seed -1` became 18446744073709551615; `check --timeout 0` was accepted with no
// meaning; `--memory 64` (the lowest accepted) crashed the tools and scored the reference 10/100.
TEST(BadOptions, ValuesOutOfRangeAreUsageErrors) {
  ToolRun seed = runTool("check " + kQuick + " --seed -1");
  EXPECT_EQ(seed.code, 2) << seed.out;
  EXPECT_NE(seed.out.find("--seed: '-1' is not an unsigned integer"), std::string::npos)
      << seed.out;
  EXPECT_EQ(runTool("check " + kQuick + " --seed ' 7'").code, 2);
  EXPECT_EQ(runTool("grade --assignment vadd " + kVaddSubmission + " --seed -1").code, 2);
  ToolRun timeout = runTool("check " + kQuick + " --timeout 0");
  EXPECT_EQ(timeout.code, 2) << timeout.out;
  EXPECT_NE(timeout.out.find("--timeout"), std::string::npos) << timeout.out;
  EXPECT_EQ(runTool("check " + kQuick + " --timeout -5").code, 2);
  // Issue 43: the message's upper bound was a 309-digit number.
  EXPECT_NE(timeout.out.find("more than 0 and at most 1000000"), std::string::npos) << timeout.out;
  EXPECT_EQ(timeout.out.find("17976931348623157"), std::string::npos) << timeout.out;
  ToolRun memory = runTool("grade --assignment vadd " + kVaddSubmission + " --memory 128");
  EXPECT_EQ(memory.code, 2) << memory.out;
  EXPECT_NE(memory.out.find("--memory"), std::string::npos) << memory.out;
}

// The probe: `--sizes FOO=3` ran a case the spec could not evaluate: a tool error, exit 0.
TEST(BadOptions, AReplayNamingNoParameterIsAUsageError) {
  ToolRun check = runTool("check " + kQuick + " --sizes FOO=3");
  EXPECT_EQ(check.code, 2) << check.out;
  EXPECT_NE(check.out.find("--sizes: 'FOO' is not a parameter of"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("(its parameters: N)"), std::string::npos) << check.out;
  ToolRun grade = runTool("grade --assignment vadd " + kVaddSubmission + " --sizes FOO=3");
  EXPECT_EQ(grade.code, 2) << grade.out;
  EXPECT_NE(grade.out.find("'FOO' is not a parameter"), std::string::npos) << grade.out;
}

// Issue 43: `check --sizes N=5` on a spec that also has L ran a case it could not evaluate: a
// tool error, exit 0.
TEST(BadOptions, AReplayLeavingOutAParameterIsAUsageError) {
  const std::string vadd = kRoot + "/tests/e2e/specs/vadd_ok.yaml";
  ToolRun check = runTool("check " + vadd + " --sizes N=5");
  EXPECT_EQ(check.code, 2) << check.out;
  EXPECT_NE(check.out.find("--sizes: 'N=5' leaves out L, a parameter of"), std::string::npos)
      << check.out;
  ToolRun grade = runTool("grade --assignment vadd " + kVaddSubmission + " --sizes N=5");
  EXPECT_EQ(grade.code, 2) << grade.out;
  EXPECT_NE(grade.out.find("leaves out L, a parameter of"), std::string::npos) << grade.out;
}

// Issue 43: 100,000 characters or 20,000 nested parentheses in --device crashed devices, check
// and grade (SIGSEGV in std::regex) and left their ICD folders behind.
TEST(BadOptions, AHostileDevicePatternIsAUsageErrorAndLeavesNoFolder) {
  const std::string tmp = inputScratch("device-pattern");
  const std::string env = "TMPDIR=" + tmp;
  const std::string nested = std::string(20000, '(');
  for (const std::string& cmd :
       {std::string("devices"), "check " + kQuick, "grade --assignment vadd " + kVaddSubmission}) {
    ToolRun r = runToolWithEnv(env, cmd + " --device '" + nested + "'");
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.out.substr(0, 400);
    EXPECT_NE(r.out.find("--device: the text given is 20000 characters long"), std::string::npos)
        << cmd << ": " << r.out.substr(0, 400);
  }
  ToolRun deep = runToolWithEnv(
      env, "devices --device '" + std::string(40, '(') + "x" + std::string(40, ')') + "'");
  EXPECT_EQ(deep.code, 2) << deep.out;
  EXPECT_NE(deep.out.find("nests groups deeper than 16"), std::string::npos) << deep.out;
  for (const auto& e : fs::directory_iterator(tmp))
    EXPECT_NE(e.path().filename().string().rfind("clharness-", 0), 0u) << "left: " << e.path();
}

// The probe: `source: ../../../etc/passwd` was exit 1 "build failure". (Division by zero, a
// negative count and a kernel missing from its file are core_tests' fixtures in
// tests/core/specs/bad/: their reference is registered there only, not in the tool.)
TEST(BadSpecs, ValuesKernelsAndSourcesAreSpecErrorsWithTheLine) {
  const std::string bad = kRoot + "/tests/core/specs/bad/";
  for (const auto& [file, said] : std::vector<std::pair<std::string, std::string>>{
           {"source_outside_tree.yaml", "source_outside_tree.yaml:4: source:"}}) {
    SCOPED_TRACE(file);
    ToolRun r = runTool("check " + bad + file);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find(said), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("root:x:"), std::string::npos) << "a host file's text in the message";
  }
}

// The probe: a merge of an interrupted report warned but wrote no `incomplete` flag (exit 0).
TEST(Merge, AnIncompleteInputMakesAnIncompleteMerge) {
  const std::string dir = inputScratch("merge");
  std::ofstream(dir + "/a.json") << R"({"tool_version": "t", "seed": 1, "devices": [],
    "units": [], "incomplete": true, "interrupted_by": "SIGTERM", "units_planned": 4})";
  std::ofstream(dir + "/b.json") << R"({"tool_version": "t", "seed": 1, "devices": [],
    "units": []})";
  ToolRun r = runTool("merge " + dir + "/a.json " + dir + "/b.json --json " + dir +
                      "/m.json --junit " + dir + "/m.xml");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("is incomplete (interrupted by SIGTERM"), std::string::npos) << r.out;
  std::ifstream in(dir + "/m.json");
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j.value("incomplete", false), true) << j.dump(2);
  EXPECT_EQ(j.value("interrupted_by", ""), "SIGTERM");
  EXPECT_EQ(j.value("units_planned", 0), 4);
  EXPECT_NE(readText(dir + "/m.xml").find("incomplete=\"true\""), std::string::npos);
  // Complete inputs make a complete merge, exit 0.
  ToolRun whole = runTool("merge " + dir + "/b.json --json " + dir + "/w.json");
  EXPECT_EQ(whole.code, 0) << whole.out;
}

std::string quickRunOf(const std::string& spec, const std::string& extra) {
  return "check " + spec + " --device '" + kPocl +
         "' --cases 1 --launch-shapes 0 --no-driver-checks " + extra;
}

std::string quickRun(const std::string& extra) {
  return quickRunOf(kQuick, extra);
}

// The probe: `check` exited 0 when its report could not be written (`--json` at a folder), with
// no reason.
TEST(ReportWrites, AReportThatCannotBeWrittenFailsWithTheReason) {
  REQUIRE_POCL();
  const std::string dir = inputScratch("folder");
  fs::create_directories(dir + "/r.json");
  ToolRun r = runTool(quickRun("--json " + dir + "/r.json"));
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("cannot write " + dir + "/r.json: Is a directory"), std::string::npos)
      << r.out;
  EXPECT_TRUE(fs::exists(dir + "/r.json.journal")) << "kept, for a --resume once it can write";
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

// The probe: on a full disk `check` exited 0 with no report and no reason.
TEST(ReportWrites, AFullDiskFailsTheRunAndLeavesNoFileClaimingToBeWhole) {
  REQUIRE_POCL();
  const std::string dir = inputScratch("full");
  // 12 KiB: the journal's first lines fit, the report does not.
  auto r = onSmallDisk(dir, "12k", quickRun("--json " + dir + "/r.json --html " + dir + "/r.html"));
  if (!r) GTEST_SKIP() << "no user namespace with a tmpfs here";
  EXPECT_EQ(r->code, 2) << r->out;
  EXPECT_NE(r->out.find("No space left on device"), std::string::npos) << r->out;
}

// The probe: `--resume` after the kernel was edited reused the journal's old pass.
TEST(Resume, AJournalOfAnEditedKernelOrSpecIsRefused) {
  REQUIRE_POCL();
  const std::string dir = inputScratch("resume");
  fs::copy_file(kRoot + "/tests/e2e/kernels/vadd_ok.cl", dir + "/vadd.cl");
  std::string spec = readText(kQuick);
  spec.replace(spec.find("../../../e2e/kernels/vadd_ok.cl"), 31, "vadd.cl");
  std::ofstream(dir + "/quick.yaml") << spec;
  // The report cannot be written (a folder of its name): the run fails and keeps its journal.
  fs::create_directories(dir + "/r.json");
  const std::string run = "check " + dir + "/quick.yaml --device '" + kPocl +
                          "' --cases 1 --launch-shapes 0 --no-driver-checks --json " + dir +
                          "/r.json";
  ASSERT_EQ(runTool(run).code, 2);
  ASSERT_TRUE(fs::exists(dir + "/r.json.journal"));
  // Unchanged files: the journal is taken.
  ToolRun same = runTool(run + " --resume");
  EXPECT_NE(same.out.find("resuming: 1 finished units"), std::string::npos) << same.out;
  // The kernel edited: refused, naming the spec.
  std::ofstream(dir + "/vadd.cl", std::ios::app) << "// edited\n";
  ToolRun edited = runTool(run + " --resume");
  EXPECT_EQ(edited.code, 2) << edited.out;
  EXPECT_NE(edited.out.find("quick.yaml or its kernel changed"), std::string::npos) << edited.out;
  EXPECT_EQ(edited.out.find("resuming"), std::string::npos) << edited.out;
}

// The probe: `grade --out` on a full disk gave a correct kernel full marks (PoCL's failure excused
// as a tool error) or 0 for a build error, exit 0.
TEST(GradeDisk, AResultsFolderWithoutRoomIsRefusedBeforeAnyGrade) {
  REQUIRE_POCL();
  const std::string dir = inputScratch("grade-full");
  auto r = onSmallDisk(dir, "8m",
                       "grade --assignment vadd " + kRoot +
                           "/kernels/assignments/vadd.cl --device pocl --allow-unassessed "
                           "--cases 2 --out " +
                           dir + "/out");
  if (!r) GTEST_SKIP() << "no user namespace with a tmpfs here";
  EXPECT_EQ(r->code, 2) << r->out;
  EXPECT_NE(r->out.find("less than the 64 MiB grading needs there"), std::string::npos) << r->out;
  EXPECT_EQ(r->out.find("/100"), std::string::npos) << "no grade was given";
}

// The probes: a submission that is a link to /etc/passwd was followed, built, and its first line
// shown in the feedback; 4 MB of spaces before '(' overflowed std::regex in the parent (SIGSEGV,
// exit 139: no summary, `.work-PID` left behind).
TEST(GradeHostile, LinksDevicesAndHugeFilesAreRefusedAndTheBatchGoesOn) {
  REQUIRE_POCL();
  const std::string in = inputScratch("grade-in"), out = inputScratch("grade-out");
  fs::create_symlink("/etc/passwd", in + "/passwd.cl");
  fs::create_symlink("/dev/zero", in + "/zero.cl");
  std::ofstream(in + "/spaces.cl") << "__kernel void vadd" << std::string(4 << 20, ' ') << "(";
  std::ofstream(in + "/long_line.cl")
      << "__kernel void vadd" << std::string(900000, ' ')
      << "(global const float* a, global const float* b, global float* c, const unsigned int n) "
         "{ int i = get_global_id(0); if (i < n) c[i] = a[i] + b[i]; }\n";
  ToolRun r = runTool("grade --assignment vadd " + in + " --device pocl --allow-unassessed " +
                      "--cases 2 --jobs 1 --out " + out);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("feedback, grades.csv and summary.txt in"), std::string::npos) << r.out;
  const std::string passwd = readText("/etc/passwd");
  const std::string firstLine = passwd.substr(0, passwd.find('\n'));
  for (const auto& [id, why] : std::vector<std::pair<std::string, std::string>>{
           {"passwd", "the file is a symbolic link"},
           {"zero", "the file is a symbolic link"},
           {"spaces", "the file is larger than 1024 KiB"}}) {
    SCOPED_TRACE(id);
    const std::string md = readText(out + "/" + id + ".md");
    EXPECT_NE(md.find("refused before any device built it: " + why), std::string::npos) << md;
    EXPECT_EQ(md.find(firstLine), std::string::npos) << "host text in the feedback";
    const auto g = nlohmann::json::parse(readText(out + "/" + id + ".json"));
    EXPECT_EQ(g.value("points", -1.0), 0.0);
  }
  // Under the cap, a line of 900000 spaces is read in one pass: the kernel is graded.
  const auto g = nlohmann::json::parse(readText(out + "/long_line.json"));
  EXPECT_EQ(g["items"][0].value("result", ""), "pass") << g.dump(2);
  for (const auto& e : fs::directory_iterator(out))
    EXPECT_EQ(e.path().filename().string().rfind(".work-", 0), std::string::npos) << e.path();
}

// The probe: `#pragma clang __debug crash` crashes PoCL's clang inside clBuildProgram; the unit
// said the kernel's process died (a crash at run time). A plain kernel builds on the same device:
// the source provoked the compiler's death, a build finding (docs/semantics.md).
TEST(BuildCrash, CheckChargesTheSourceWhereAPlainKernelBuilds) {
  REQUIRE_POCL();
  const std::string dir = inputScratch("build-crash");
  std::ofstream(dir + "/vadd.cl") << "#pragma clang __debug crash\n"
                                  << readText(kRoot + "/tests/e2e/kernels/vadd_ok.cl");
  std::string spec = readText(kQuick);
  spec.replace(spec.find("../../../e2e/kernels/vadd_ok.cl"), 31, "vadd.cl");
  std::ofstream(dir + "/quick.yaml") << spec;
  ToolRun r = runTool(quickRunOf(dir + "/quick.yaml", "--json " + dir + "/r.json"));
  EXPECT_EQ(r.code, 1) << r.out;
  // (clang's __debug crash is a trap: SIGILL on x86.)
  EXPECT_NE(r.out.find(") while building this kernel; a plain kernel builds on the same device"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("build_error: the compiler of " + kPocl), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(readText(dir + "/r.json"));
  ASSERT_EQ(j.at("units").size(), 1u);
  EXPECT_EQ(j["units"][0]["failing_case"]["findings"][0]["kind"], "build_error") << j.dump(2);
}

// The probe: a launch child stopped by its time limit said only "the child exited (code -1)
// before any shape ran".
TEST(LaunchLimits, AChildStoppedBeforeAnyShapeNamesItsTimeLimit) {
  REQUIRE_POCL();
  ToolRun r = runTool("launch " + kQuick + " --device '" + kPocl + "' --shapes 1 --timeout 0.05");
  EXPECT_NE(r.out.find("stopped by its time limit of 0.05 s before any shape ran"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("exited (code -1)"), std::string::npos) << r.out;
}

}  // namespace
