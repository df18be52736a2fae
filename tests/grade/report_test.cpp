// Tests of what people read and what lands on disk: the feedback Markdown, Gradescope's
// results.json, the gradebook and summary table, finding submissions, atomic writes, and the
// resource limits a grading process puts on itself.
#include "grade/report.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "grade/batch.hpp"
#include "grade/device_job.hpp"
#include "grade/html.hpp"

namespace clh::grade {
namespace {

namespace fs = std::filesystem;

const std::string kReportRoot = CLHARNESS_SOURCE_ROOT;

// The rubric of sampleGrade's items: builds 10, correct 60, clean 30.
Rubric sampleRubric() {
  Rubric r;
  r.items = {{"builds", "", 0, 10, ItemCheck::build, {}, {}, {}},
             {"correct", "", 0, 60, ItemCheck::results, {}, {}, {}},
             {"clean", "", 0, 30, ItemCheck::simulator, {}, {}, {}}};
  return r;
}

// A grade with a bit of everything: a build log on one item, a race with its lines, mismatches.
Grade sampleGrade() {
  Grade g;
  g.assignment = "vadd";
  g.assignment_title = "Vector addition";
  g.submission = "bob, jr";
  g.file = "bob.cl";
  g.seed = 1;
  g.points = 40;
  g.max_points = 100;
  g.seconds = 2.2;
  ItemGrade builds{"builds", "Builds", ItemCheck::build, true, 10, 10, {}, true, "", false, "", {}};
  ItemGrade correct{
      "correct", "Right results", ItemCheck::results, true, 30, 60, {}, true, "", true, "", {}};
  correct.kinds = {FindingKind::tool_error};
  correct.note =
      "a tool failed on X while another device ran the kernel: not the student's fault, no points "
      "lost";
  ItemGrade clean{
      "clean", "No race", ItemCheck::simulator, false, 0, 30, {FindingKind::race}, true, "", false,
      "",      {}};
  Evidence e;
  e.device = "Oclgrind: Oclgrind Simulator";
  e.sizes = Sizes{{"N", 8}, {"TS", 4}};
  e.replay = "clharness grade --assignment vadd bob.cl --sizes N=8,TS=4";
  Finding race;
  race.kind = FindingKind::race;
  race.summary = "Read-write data race at local memory between bob.cl:14 and bob.cl:12";
  race.lines = {{"bob.cl", 14, "acc += Asub[r][k];"}, {"bob.cl", 12, "Bsub[r][c] = B[i];"}};
  e.findings = {race};
  Finding wrong;
  wrong.kind = FindingKind::wrong_result;
  wrong.summary = "C: 60 of 64 elements differ from the reference";
  wrong.mismatches = {{"C", {0, 1}, "-0.22", "0.08", false}};
  wrong.mismatch_count = 60;
  e.symptoms = {wrong};
  clean.evidence = {e};
  g.items = {builds, correct, clean};
  g.points = 40;
  return g;
}

TEST(Feedback, ABuildErrorHasNoFailingCaseAndTheInterfaceComesFirst) {
  Grade g = sampleGrade();
  Evidence e;
  e.device = "Portable Computing Language: pthread-x";
  e.sizes = Sizes{{"N", 1}};
  e.replay = "clharness grade --assignment vadd bob.cl --device Portable --sizes N=1";
  Finding f;
  f.kind = FindingKind::build_error;
  f.summary = "clBuildProgram failed";
  e.findings = {f};
  g.items[0].passed = false;
  g.items[0].evidence = {e};
  g.interface_differences = {"your kernel takes 3 parameters (...)"};
  std::ostringstream os;
  writeFeedbackMarkdown(os, g);
  const std::string md = os.str();
  EXPECT_EQ(md.find("smallest failing case `N=1`"), std::string::npos) << md;
  EXPECT_EQ(md.find("--sizes N=1"), std::string::npos) << md;
  const size_t iface = md.find("## Your kernel's parameters differ from the assignment's");
  ASSERT_NE(iface, std::string::npos) << md;
  EXPECT_LT(iface, md.find("## Builds")) << "the interface comes before the items";
  EXPECT_NE(md.find("- your kernel takes 3 parameters"), std::string::npos) << md;
}

TEST(Feedback, UnassessedItemsAreMarkedInTheFeedbackAndTheGradebook) {
  Grade g = sampleGrade();
  g.items[2].assessed = false;
  g.items[2].evidence.clear();
  g.unassessed = {"clean"};
  std::ostringstream os;
  writeFeedbackMarkdown(os, g);
  EXPECT_NE(os.str().find("**Not assessed on the grading machine:** 'No race' (30 points)"),
            std::string::npos)
      << os.str();
  const Rubric r = sampleRubric();
  Grade other = sampleGrade();
  other.submission = "carol";
  std::ostringstream csv;
  writeGradebookCsv(csv, r, {g, other});
  EXPECT_EQ(csv.str(),
            "submission,builds,correct,clean,total,notes\n"
            "\"bob, jr\",10,30,0,40,not assessed: clean\n"
            "carol,10,30,0,40,\n");
}

TEST(Feedback, MarkdownShowsPointsEvidenceAndReplay) {
  std::ostringstream os;
  writeFeedbackMarkdown(os, sampleGrade());
  std::string md = os.str();
  EXPECT_NE(md.find("# Vector addition: bob.cl"), std::string::npos) << md;
  EXPECT_NE(md.find("**40 / 100 points**"), std::string::npos) << md;
  EXPECT_NE(md.find("| No race | fail: race | 0 / 30 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| Right results | pass (a tool failed: not your fault) | 30 / 60 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("smallest failing case `N=8,TS=4`"), std::string::npos) << md;
  EXPECT_NE(md.find("line 14 of `bob.cl`: `acc += Asub[r][k];`"), std::string::npos) << md;
  EXPECT_NE(md.find("line 12 of `bob.cl`: `Bsub[r][c] = B[i];`"), std::string::npos) << md;
  EXPECT_NE(md.find("as a consequence"), std::string::npos) << md;
  EXPECT_NE(md.find("`C[0, 1]: got -0.22, want 0.08`"), std::string::npos) << md;
  EXPECT_NE(md.find("Replay: `clharness grade --assignment vadd bob.cl --sizes N=8,TS=4`"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("*Hint:* Two work-items"), std::string::npos) << md;
}

// The Devices section counts distinct cases, and says when the domain held fewer than asked for.
TEST(Feedback, DevicesCountDistinctCasesAndSayWhenTheDomainHeldFewer) {
  Grade g = sampleGrade();
  DeviceRun few;
  few.device = "Portable Computing Language: pthread-x";
  few.unit = UnitResult{};
  few.distinct_cases = 3;
  few.cases_asked = 10;
  DeviceRun all = few;
  all.device = "Oclgrind: Oclgrind Simulator";
  all.distinct_cases = 10;
  g.runs = {few, all};
  std::ostringstream os;
  writeFeedbackMarkdown(os, g);
  const std::string md = os.str();
  EXPECT_NE(md.find("pthread-x`: completed, 3 distinct cases (10 asked for: the sizes allowed on "
                    "this device hold no more"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("Simulator`: completed, 10 distinct cases\n"), std::string::npos) << md;
  nlohmann::json j = few;
  EXPECT_EQ(j["cases_asked"], 10);
  EXPECT_EQ(j.get<DeviceRun>().cases_asked, 10);
}

TEST(Feedback, BuildLogIsFencedEvenWithBackquotesInIt) {
  ItemGrade item{"builds",
                 "Builds",
                 ItemCheck::build,
                 false,
                 0,
                 10,
                 {FindingKind::build_error},
                 true,
                 "",
                 false,
                 "",
                 {}};
  Evidence e;
  e.device = "d";
  Finding f;
  f.kind = FindingKind::build_error;
  f.summary = "clBuildProgram failed";
  f.raw = "bob.cl:4:27: error: expected ';'\n```oops";
  e.findings = {f};
  item.evidence = {e};
  std::string md = itemMarkdown(item);
  EXPECT_NE(md.find("Build log:"), std::string::npos) << md;
  EXPECT_NE(md.find("  ````\n  bob.cl:4:27: error: expected ';'\n  ```oops\n  ````"),
            std::string::npos)
      << md;
}

TEST(Gradescope, ResultsJsonFollowsTheirFormat) {
  Grade g = sampleGrade();
  nlohmann::json j = gradescopeResults(g);
  EXPECT_EQ(j["score"], 40);
  EXPECT_EQ(j["execution_time"], 3);  // whole seconds, rounded up
  EXPECT_EQ(j["output_format"], "md");
  EXPECT_EQ(j["stdout_visibility"], "hidden");
  ASSERT_EQ(j["tests"].size(), 3u);
  double sum = 0;
  for (const auto& t : j["tests"]) {
    for (const char* key :
         {"name", "score", "max_score", "status", "output", "number", "visibility"})
      EXPECT_TRUE(t.contains(key)) << key;
    sum += t["score"].get<double>();
  }
  EXPECT_EQ(sum, j["score"].get<double>());
  EXPECT_EQ(j["tests"][2]["name"], "No race");
  EXPECT_EQ(j["tests"][2]["status"], "failed");
  EXPECT_EQ(j["tests"][2]["max_score"], 30);
  EXPECT_EQ(j["tests"][2]["tags"], nlohmann::json::array({"simulator", "race"}));
  EXPECT_NE(j["tests"][2]["output"].get<std::string>().find("line 14 of `bob.cl`"),
            std::string::npos);
  EXPECT_EQ(j["tests"][0]["status"], "passed");
}

TEST(Gradebook, CsvHasAColumnPerItemAndQuotes) {
  const Rubric r = sampleRubric();
  Grade a = sampleGrade();
  Grade b = sampleGrade();
  b.submission = "carol";
  b.items[2].points = 7.5;
  b.points = 47.5;
  std::ostringstream os;
  writeGradebookCsv(os, r, {a, b});
  EXPECT_EQ(
      os.str(),
      "submission,builds,correct,clean,total\n\"bob, jr\",10,30,0,40\ncarol,10,30,7.5,47.5\n");
}

TEST(Gradebook, SummaryTableNamesWhatWentWrong) {
  const Rubric r = sampleRubric();
  Grade g = sampleGrade();
  g.review = true;
  std::ostringstream os;
  writeSummaryTable(os, r, {g});
  std::string t = os.str();
  EXPECT_NE(t.find("SUBMISSION  BUILDS  CORRECT  CLEAN    TOTAL  NOTES"), std::string::npos) << t;
  EXPECT_NE(t.find("bob, jr      10/10    30/60   0/30   40/100  correct excused: tool_error; "
                   "clean: race; REVIEW"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("1 submission, mean 40 / 100, 1 to review by hand"), std::string::npos) << t;
}

// An item that no device could judge (the simulator's, when the simulator crashed): the student
// reads "not assessed" and no hint that says no points were lost; the instructor's table names the
// device that could not look, and asks for a review (issue 43).
TEST(Gradebook, AnItemNobodyJudgedSaysWhoCouldNotLookAndPromisesNothing) {
  const Rubric r = sampleRubric();
  Grade g = sampleGrade();
  ItemGrade& clean = g.items[2];
  clean.assessed = false;
  clean.kinds = {FindingKind::tool_error};
  clean.note =
      "not assessed: no device could judge it: Oclgrind: Oclgrind Simulator could not look (the "
      "simulator crashed (SIGSEGV): not the student's fault); no points either way: grade it by "
      "hand";
  Evidence e;
  e.device = "Oclgrind: Oclgrind Simulator";
  e.note = "this device could not look at your kernel (the tool failed here, not your kernel)";
  clean.evidence = {e};
  g.review = true;
  std::ostringstream md;
  writeFeedbackMarkdown(md, g);
  EXPECT_NE(md.str().find("| No race | not assessed | 0 / 30 |"), std::string::npos) << md.str();
  EXPECT_EQ(md.str().find("no points were lost"), std::string::npos) << md.str();
  std::ostringstream t;
  writeSummaryTable(t, r, {g});
  EXPECT_NE(t.str().find("clean: not assessed (Oclgrind could not look); REVIEW"),
            std::string::npos)
      << t.str();
}

// The histogram of totals counts every submission once, in the bin of its total; the maximum is
// in the last bin.
TEST(GradeHtml, TheHistogramCountsEachTotalInItsBin) {
  std::vector<Grade> grades(7);
  const double totals[] = {0, 9.99, 10, 55, 99.9, 100, 100};
  for (size_t i = 0; i < grades.size(); ++i) grades[i].points = totals[i];
  const auto bins = totalsHistogram(grades, 100);
  ASSERT_EQ(bins.size(), 10u);
  int all = 0;
  for (const auto& [label, n] : bins) all += n;
  EXPECT_EQ(all, 7);
  EXPECT_EQ(bins.front().second, 2);  // 0 and 9.99
  EXPECT_EQ(bins[1].second, 1);       // 10
  EXPECT_EQ(bins[5].second, 1);       // 55
  EXPECT_EQ(bins.back().second, 3);   // 99.9, 100, 100
  // Few points: a bin per point, 0 included.
  grades.resize(2);
  grades[0].points = 0;
  grades[1].points = 3;
  const auto small = totalsHistogram(grades, 3);
  ASSERT_EQ(small.size(), 4u);
  EXPECT_EQ(small.front().second, 1);
  EXPECT_EQ(small.back().second, 1);
}

// The page has the overview and a section per submission, linked by anchors; a submission's id
// and its evidence are untrusted and escaped.
TEST(GradeHtml, APageHasASectionPerSubmissionAndEscapesTheirText) {
  const Rubric r = sampleRubric();
  Grade a = sampleGrade();
  Grade b = sampleGrade();
  b.submission = "</script><script>alert(1)</script>";
  b.items[2].evidence[0].findings[0].lines[0].text = "</script><b>x</b>";
  std::ostringstream os;
  writeGradeHtml(os, r, {a, b}, {});
  const std::string page = os.str();
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t at = page.find(what); at != std::string::npos; at = page.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("<script"), 1u);
  EXPECT_EQ(count("<b>x</b>"), 0u);
  EXPECT_EQ(count("<section id=\"sub-"), 2u);
  EXPECT_EQ(count("href=\"#sub-"), 2u);
  EXPECT_NE(page.find("id=\"overview\""), std::string::npos);
  // The race's two lines, without the source file here: their own text, said as such.
  EXPECT_EQ(count("<tr class=\"hl\">"), 4u);
  EXPECT_NE(page.find("source not found"), std::string::npos);
}

fs::path freshDir(const std::string& name) {
  fs::path d = fs::path(::testing::TempDir()) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(Batch, SubmissionsAreFoundByFolderWithTheirPathAsId) {
  fs::path d = freshDir("subs");
  for (const char* f : {"zed.cl", "alice/kernel.cl", "bob/kernel.cl", "notes.txt", ".hidden/x.cl",
                        "carol/.swap.cl"}) {
    fs::create_directories((d / f).parent_path());
    std::ofstream(d / f) << "kernel";
  }
  std::ofstream(d / "single.txt") << "a file given by name is taken whatever it is called";
  auto subs = findSubmissions({d.string(), (d / "single.txt").string()});
  std::vector<std::string> ids;
  for (const auto& s : subs) ids.push_back(s.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"alice/kernel", "bob/kernel", "single", "zed"}));
  EXPECT_EQ(subs[0].safe_id(), "alice__kernel");
  EXPECT_EQ(subs[0].file_name(), "kernel.cl");

  EXPECT_THROW(findSubmissions({(d / "missing").string()}), std::invalid_argument);
  EXPECT_THROW(findSubmissions({(d / ".hidden").string() + "/../notes-only"}),
               std::invalid_argument);
  fs::path empty = freshDir("subs_empty");
  EXPECT_THROW(findSubmissions({empty.string()}), std::invalid_argument);
  EXPECT_THROW(findSubmissions({(d / "zed.cl").string(), (d / "zed.cl").string()}),
               std::invalid_argument);
}

TEST(Batch, AtomicWriteLeavesOnlyTheFinishedFile) {
  fs::path d = freshDir("atomic");
  std::string path = (d / "x.json").string();
  writeFileAtomically(path, "first");
  writeFileAtomically(path, "second");
  std::ifstream in(path);
  std::string content((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(content, "second");
  EXPECT_EQ(std::distance(fs::directory_iterator(d), fs::directory_iterator()), 1);
  EXPECT_THROW(writeFileAtomically((d / "x.json" / "under-a-file").string(), "x"), std::exception);
}

TEST(Batch, ResultFilesRoundTripAndDamagedOnesReadAsMissing) {
  fs::path d = freshDir("results");
  Submission s{"alice/kernel", "alice/kernel.cl", {}};
  ResultFiles files = resultFiles(d.string(), s);
  EXPECT_EQ(files.json, (d / "alice__kernel.json").string());
  Grade g = sampleGrade();
  g.fingerprint = "abc";
  writeGradeFiles(files, g, true);
  auto back = readGrade(files.json);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->fingerprint, "abc");
  EXPECT_EQ(back->points, 40);
  EXPECT_TRUE(fs::exists(files.markdown));
  EXPECT_TRUE(fs::exists(files.gradescope));
  std::ofstream(files.json) << "{\"schema\": \"clharness-grade/1\", \"items\": [";  // cut short
  EXPECT_FALSE(readGrade(files.json));
  EXPECT_FALSE(readGrade((d / "nothing.json").string()));
}

TEST(Limits, AChildLimitsItsCpuTimeAndMemory) {
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    try {
      applyLimits({3.2, 512ull << 20});
    } catch (...) {
      _exit(10);
    }
    rlimit cpu{}, data{};
    getrlimit(RLIMIT_CPU, &cpu);
    getrlimit(RLIMIT_DATA, &data);
    _exit(cpu.rlim_cur == 4 && cpu.rlim_max == 9 && data.rlim_cur == (512ull << 20) ? 0 : 11);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace clh::grade
