// Tests of the grading parent against hostile submissions (issue 32; no device): a submission is
// read as a regular file only (no link, device or pipe; size-capped), the parent's readings of a
// student's text (parameters, techniques, build logs, compiler file names) are linear scans that
// survive megabytes of one character, PoCL's diagnostics reach the student, and gradebook cells
// cannot smuggle a spreadsheet formula; a linked folder is a refused row, and a file name's
// control characters reach no output raw (issue 43).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "grade/batch.hpp"
#include "grade/grade.hpp"
#include "grade/report.hpp"
#include "grade/rubric.hpp"
#include "grade/source_guard.hpp"
#include "grade/submission_file.hpp"

namespace fs = std::filesystem;

namespace clh::grade {
namespace {

fs::path scratch(const std::string& name) {
  fs::path d = fs::path(::testing::TempDir()) / ("hostile_input_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string firstLineOf(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

TEST(SubmissionFile, ReadsARegularFile) {
  const fs::path d = scratch("regular");
  std::ofstream(d / "a.cl") << "kernel void k() {}\n";
  const SubmissionBytes b = readSubmissionFile((d / "a.cl").string());
  EXPECT_EQ(b.refused, "");
  EXPECT_EQ(b.text, "kernel void k() {}\n");
}

// The probe: a submission that is a link to /etc/passwd was built and its first line shown.
TEST(SubmissionFile, ALinkIsRefusedAndNothingOfItsTargetIsRead) {
  const fs::path d = scratch("link");
  fs::create_symlink("/etc/passwd", d / "leak.cl");
  const SubmissionBytes b = readSubmissionFile((d / "leak.cl").string());
  EXPECT_EQ(b.text, "");
  EXPECT_NE(b.refused.find("symbolic link"), std::string::npos) << b.refused;
  EXPECT_EQ(b.refused.find(firstLineOf("/etc/passwd")), std::string::npos);
  EXPECT_EQ(b.refused.find("/etc"), std::string::npos) << "the reason names no host path";
}

TEST(SubmissionFile, DevicesAndPipesAreRefusedWithoutBlocking) {
  const fs::path d = scratch("special");
  ASSERT_EQ(::mkfifo((d / "pipe.cl").c_str(), 0600), 0);  // nobody writes it: a read would block
  for (const std::string& path :
       std::vector<std::string>{"/dev/zero", "/dev/null", (d / "pipe.cl").string()}) {
    SCOPED_TRACE(path);
    const SubmissionBytes b = readSubmissionFile(path);
    EXPECT_EQ(b.text, "");
    EXPECT_NE(b.refused.find("not a regular file"), std::string::npos) << b.refused;
  }
}

TEST(SubmissionFile, AFileOverTheCapIsRefused) {
  const fs::path d = scratch("big");
  std::ofstream(d / "big.cl") << std::string(kMaxSubmissionBytes + 1, ' ');
  std::ofstream(d / "fits.cl") << std::string(kMaxSubmissionBytes, ' ');
  const SubmissionBytes big = readSubmissionFile((d / "big.cl").string());
  EXPECT_EQ(big.text, "");
  EXPECT_NE(big.refused.find("larger than 1024 KiB"), std::string::npos) << big.refused;
  EXPECT_EQ(readSubmissionFile((d / "fits.cl").string()).text.size(), kMaxSubmissionBytes);
  EXPECT_NE(readSubmissionFile((d / "gone.cl").string()).refused.find("could not be read"),
            std::string::npos);
}

// A link in a folder of submissions is listed (and then refused), not followed or skipped.
TEST(SubmissionFile, LinksInAFolderAreSubmissionsToRefuse) {
  const fs::path d = scratch("folder");
  std::ofstream(d / "alice.cl") << "kernel void k() {}\n";
  fs::create_symlink("/etc/passwd", d / "mallory.cl");
  fs::create_directories(d / "dir.cl");  // a folder is no submission
  const auto subs = findSubmissions({d.string()});
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(subs[0].id, "alice");
  EXPECT_EQ(subs[1].id, "mallory");
  // Named on the command line, a device is a submission to refuse too, not "no such file".
  EXPECT_EQ(findSubmissions({"/dev/null"}).size(), 1u);
}

// Issue 43: a link to a folder was skipped without a word (a linked file gets a refusal row).
TEST(SubmissionFile, ALinkedFolderIsARefusedSubmissionNotFollowed) {
  const fs::path d = scratch("linked_folder"), elsewhere = scratch("linked_folder_target");
  std::ofstream(d / "alice.cl") << "kernel void k() {}\n";
  std::ofstream(elsewhere / "bob.cl") << "kernel void k() {}\n";
  fs::create_directory_symlink(elsewhere, d / "team");
  const auto subs = findSubmissions({d.string()});
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(subs[0].id, "alice");
  EXPECT_EQ(subs[1].id, "team");  // the link itself, not team/bob: it is not followed
  const SubmissionBytes b = readSubmissionFile(subs[1].path);
  EXPECT_TRUE(b.text.empty());
  EXPECT_NE(b.refused.find("the folder is a symbolic link"), std::string::npos) << b.refused;
}

// Issue 43: escape codes in a file name reached the console, summary.txt and grades.csv raw.
TEST(SubmissionFile, ControlCharactersInANameReachNoOutputRaw) {
  const fs::path d = scratch("escape_name");
  std::ofstream(d / "\x1b[2J\x1b[31mevil\r.cl") << "#include \"/etc/passwd\"\n";
  const auto subs = findSubmissions({d.string()});
  ASSERT_EQ(subs.size(), 1u);
  EXPECT_EQ(subs[0].id, "\\x1b[2J\\x1b[31mevil\\x0d");
  GradeContext ctx;
  ctx.assignment_argument = "vadd";
  const Assignment a = loadAssignment("vadd", CLHARNESS_SOURCE_ROOT);
  const Grade g = refusedGrade(a, subs[0], "line 1: '#include' is not allowed", ctx);
  std::ostringstream summary, csv, md;
  writeSummaryTable(summary, a.rubric, {g});
  writeGradebookCsv(csv, a.rubric, {g});
  writeFeedbackMarkdown(md, g);
  for (const std::string& out : {summary.str(), csv.str(), md.str()}) {
    EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
    EXPECT_EQ(out.find('\r'), std::string::npos) << out;
  }
  EXPECT_NE(summary.str().find("\\x1b[2J\\x1b[31mevil"), std::string::npos) << summary.str();
  EXPECT_NE(md.str().find("\\x1b[2J"), std::string::npos) << md.str();
}

// The probe: 4 MB of spaces before '(' overflowed std::regex in the parent (SIGSEGV, exit 139).
TEST(HostileText, MegabytesOfOneCharacterAreReadInOnePass) {
  const std::string spaces(4 << 20, ' ');
  auto ps = kernelParameters("__kernel void vadd" + spaces + "(global float* a, int n)", "vadd");
  ASSERT_TRUE(ps.has_value());
  ASSERT_EQ(ps->size(), 2u);
  EXPECT_EQ((*ps)[1].name, "n");
  EXPECT_FALSE(kernelParameters("__kernel void" + spaces + "other(int n)", "vadd").has_value());
  EXPECT_FALSE(kernelParameters(std::string(4 << 20, 'a'), "vadd").has_value());
  // A parameter "x]" with no '[' (the array declarator reading ran off the front).
  ps = kernelParameters("kernel void vadd(int x])", "vadd");
  ASSERT_TRUE(ps.has_value());
  EXPECT_EQ(techniquesUsed("__local" + spaces + "float t[4]; barrier" + spaces + "(0);"),
            (std::set<std::string>{"local_memory", "barrier"}));
  EXPECT_EQ(techniquesUsed(std::string(4 << 20, '(')), std::set<std::string>{});
  const std::string log = "alice.cl:1:1: error: x\n" + std::string(4 << 20, 'a') + "\n";
  EXPECT_NE(studentBuildLog(log, "alice.cl").find("alice.cl:1:1: error: x"), std::string::npos);
  EXPECT_NE(studentBuildLog(std::string(4 << 20, ':'), "alice.cl").find("left out"),
            std::string::npos);
}

// The kernel-name reading is the same as before on ordinary code.
TEST(HostileText, KernelHeadsAreFoundAsBefore) {
  EXPECT_FALSE(kernelParameters("void vadd(int a) {} kernel void other(int b) {}", "vadd"));
  EXPECT_TRUE(kernelParameters("__attribute__((x)) kernel\nvoid\nvadd (int a)", "vadd"));
  EXPECT_FALSE(kernelParameters("kernel void f(); void vadd(int a)", "vadd"));
  EXPECT_FALSE(kernelParameters("my_kernel void vadd(int a)", "vadd"));
  EXPECT_EQ(techniquesUsed("local_sums[0] = 1; atomic_add(p, 1); work_group_barrier (x);"),
            (std::set<std::string>{"atomics", "barrier"}));
  EXPECT_EQ(techniquesUsed("atomic_add2(p); my_barrier(0); local(x);"), std::set<std::string>{});
}

// The probe: PoCL writes "error: PATH:L:C: message"; renamed to the student's file, the filter
// left it out, and the student saw no diagnostic at all.
TEST(BuildLog, PoclsDiagnosticsReachTheStudent) {
  const std::string log =
      "error: alice.cl:5:27: use of undeclared identifier 'x'\n"
      "error: /usr/lib/clang/include/opencl-c.h:1:1: secret\n"
      "Device pthread-haswell failed to build the program\n"
      "warning: alice.cl:3:1: unused variable 'y'\n";
  const std::string kept = studentBuildLog(log, "alice.cl");
  EXPECT_NE(kept.find("error: alice.cl:5:27: use of undeclared identifier 'x'"), std::string::npos)
      << kept;
  EXPECT_NE(kept.find("warning: alice.cl:3:1: unused variable 'y'"), std::string::npos) << kept;
  EXPECT_EQ(kept.find("secret"), std::string::npos) << kept;
  EXPECT_NE(kept.find("(2 lines of the compiler's output not about alice.cl left out)"),
            std::string::npos)
      << kept;
}

TEST(BuildLog, CompilerCopiesAreRenamedInOnePass) {
  const Submission s{"alice", "/home/ta/batch/alice.cl", {}};
  EXPECT_EQ(
      studentPaths("error: /root/.cache/pocl/kcache/tempfile_3rCgn9.cl:4:27: x\n"
                   "input.cl:2:1: y (input.cl) 'input.cl' input.clz tempfile_.cl",
                   s),
      "error: alice.cl:4:27: x\nalice.cl:2:1: y (alice.cl) 'alice.cl' input.clz tempfile_.cl");
  const std::string huge(4 << 20, 'x');
  EXPECT_EQ(studentPaths(huge + "tempfile_ab.cl", s), "alice.cl");
  EXPECT_EQ(studentPaths(huge, s).size(), huge.size());
}

// The probe: a file named "=HYPERLINK(...).cl" put a formula into grades.csv.
TEST(Gradebook, FormulaCellsAreQuoted) {
  Rubric r;
  RubricItem item;
  item.id = "builds";
  item.points = 10;
  r.items.push_back(item);
  auto graded = [](const std::string& id) {
    Grade g;
    g.submission = id;
    g.max_points = 10;
    return g;
  };
  std::ostringstream csv;
  writeGradebookCsv(csv, r,
                    {graded("=HYPERLINK(\"http://x\";\"y\")"), graded("+1"), graded("-2"),
                     graded("@SUM(A1)"), graded("alice")});
  EXPECT_EQ(csv.str(),
            "submission,builds,total\n"
            "\"'=HYPERLINK(\"\"http://x\"\";\"\"y\"\")\",,0\n"
            "'+1,,0\n"
            "'-2,,0\n"
            "'@SUM(A1),,0\n"
            "alice,,0\n");
}

}  // namespace
}  // namespace clh::grade
