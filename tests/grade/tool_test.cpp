// End-to-end tests of `clharness grade` on the devices here: the reference solutions score full
// marks; each faulty submission under submissions/<assignment>/ loses the items its
// "// expect: item=kind ..." line names and nothing else (an item may only be blocked by a lost
// one); a batch survives hangs, crashes and build errors; an interrupted batch resumes.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "grade_tool_support.hpp"
#include "support/tool_run.hpp"

extern char** environ;

namespace {

using clh::test::ToolRun;
using namespace clh::test::grade;

std::filesystem::path freshDir(const std::string& name) {
  return clh::test::grade::freshDir("grade_tool_", name);
}

namespace fs = std::filesystem;
using json = nlohmann::json;

// The "// expect: item=kind item=kind" line of a faulty submission: item -> expected kind.
// "item=a|b": lost to one of these kinds (a wild store: a crash on a CPU driver, a launch error
// on a GPU's); "item=kind?": may be lost to that kind, or kept (a race's wrong results depend on
// the device's schedule).
std::multimap<std::string, std::string> expectations(const fs::path& file) {
  std::multimap<std::string, std::string> out;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("// expect:", 0) != 0) continue;
    std::istringstream words(line.substr(10));
    std::string w;
    while (words >> w) {
      if (w == "nothing") {  // a correct submission: every item passes
        out.emplace("", "");
        continue;
      }
      auto eq = w.find('=');
      out.emplace(w.substr(0, eq), w.substr(eq + 1));
    }
  }
  return out;
}

// Checks one submission's grade against its file's expectations. "item=not_assessed?": where
// the only device that judges the item failed as a tool (Oclgrind 21.10 on float4 code), it is not
// assessed: no points and a review.
void checkGrade(const json& g, const std::multimap<std::string, std::string>& expect,
                const std::string& md) {
  bool unjudged = false;
  std::set<std::string> lost, maybe;
  for (const auto& [item, kind] : expect)
    if (!item.empty()) (kind.ends_with("?") ? maybe : lost).insert(item);
  auto lostTo = [](const json& item, const std::string& kinds) {
    std::stringstream alternatives(kinds.substr(0, kinds.find('?')));
    for (std::string kind; std::getline(alternatives, kind, '|');)
      for (const auto& k : item["kinds"])
        if (k == kind) return true;
    return false;
  };
  for (const auto& item : g["items"]) {
    std::string id = item["id"];
    SCOPED_TRACE(id);
    if (lost.count(id)) {
      EXPECT_EQ(item["result"], "fail");
      EXPECT_EQ(item["points"], 0);
      EXPECT_TRUE(item["blocked_by"].is_null())
          << "lost for its own findings, not as a consequence";
      auto [lo, hi] = expect.equal_range(id);
      for (auto it = lo; it != hi; ++it)
        EXPECT_TRUE(lostTo(item, it->second))
            << "expected kind " << it->second << " in " << item["kinds"].dump();
      EXPECT_FALSE(item["evidence"].empty());
    } else if (maybe.count(id) && !item["assessed"].get<bool>()) {
      EXPECT_EQ(expect.find(id)->second, "not_assessed?") << item.dump();
      EXPECT_EQ(item["points"], 0);
      EXPECT_EQ(item["kinds"], json::array({"tool_error"}));
      EXPECT_TRUE(g["review"].get<bool>()) << "nobody judged it: an instructor must";
      unjudged = true;
    } else if (maybe.count(id) && item["result"] == "fail") {
      EXPECT_TRUE(lostTo(item, expect.find(id)->second)) << item["kinds"].dump();
    } else if (item["blocked_by"].is_string()) {
      EXPECT_TRUE(lost.count(item["blocked_by"].get<std::string>()))
          << "blocked by " << item["blocked_by"] << ", which should have passed";
    } else {
      EXPECT_EQ(item["result"], "pass") << md;
      EXPECT_EQ(item["points"], item["max_points"]);
    }
  }
  if (!unjudged) {
    EXPECT_FALSE(g["review"].get<bool>()) << md;
  }
}

// Grades the reference solution and every faulty submission of one assignment in one batch.
void gradeAssignment(const std::string& name, const std::string& extra = "") {
  fs::path out = freshDir(name);
  ToolRun r =
      tool("grade --assignment " + name + " " + kRoot + "/kernels/assignments/" + name + ".cl " +
           kSubmissions + "/" + name + " --out " + out.string() + " --cases 8 " + extra);
  ASSERT_EQ(r.code, 0) << r.out;
  json ref = readJson(out / (name + ".json"));
  EXPECT_EQ(ref["points"], ref["max_points"]) << r.out;
  // The reference ran to its end in each of its three processes: PoCL, the sanitizer on PoCL (its
  // sizes are its own, the same at any --cases: ReferenceSolutions... leaves it to here) and
  // Oclgrind.
  ASSERT_EQ(ref["devices"].size(), 3u) << ref["devices"].dump(2);
  for (const auto& d : ref["devices"]) EXPECT_EQ(d["end"], "completed") << d.dump();
  // The reference's own file in the batch runs the job its calibration ran: that run is its grade
  // on PoCL and Oclgrind, and says so; the sanitizer's job is another, run as for any submission.
  for (const auto& d : ref["devices"])
    EXPECT_EQ(d.value("note", "").find("the reference solution's own file") != std::string::npos,
              !d.value("sanitized", false))
        << d.dump();
  int faulty = 0;
  for (const auto& e : fs::directory_iterator(kSubmissions + "/" + name)) {
    if (e.path().extension() != ".cl") continue;
    SCOPED_TRACE(e.path().filename().string());
    ++faulty;
    auto expect = expectations(e.path());
    ASSERT_FALSE(expect.empty()) << "a faulty submission states what it must lose";
    fs::path result = out / (e.path().stem().string() + ".json");
    ASSERT_TRUE(fs::exists(result)) << r.out;
    checkGrade(readJson(result), expect, readText(out / (e.path().stem().string() + ".md")));
  }
  EXPECT_GT(faulty, 0);
  // The gradebook has the reference and every submission, and the table a line for each.
  std::string csv = readText(out / "grades.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), faulty + 2) << csv;
  EXPECT_NE(r.out.find(std::to_string(faulty + 1) + " submissions, mean"), std::string::npos)
      << r.out;
}

// A kernel whose parameter list is not the assignment's (two of vadd's batch): the feedback says
// so first, `clean` is not earned by a kernel the simulator never ran, names are the student's, and
// replay lines name the assignment and the device briefly.
void expectInterfaceFeedback(const fs::path& out) {
  json three = readJson(out / "three_params.json");
  EXPECT_EQ(three["points"], 10) << three.dump(2);
  EXPECT_EQ(three["items"][2]["blocked_by"], "correct");
  std::string md = readText(out / "three_params.md");
  EXPECT_NE(md.find("## Your kernel's parameters differ"), std::string::npos) << md;
  EXPECT_NE(md.find("takes 3 parameters"), std::string::npos) << md;
  std::string swapped = readText(out / "swapped_params.md");
  EXPECT_NE(swapped.find("another order"), std::string::npos) << swapped;
  EXPECT_NE(swapped.find("Replay: `clharness grade --assignment vadd swapped_params.cl --device "),
            std::string::npos)
      << swapped;
  EXPECT_EQ(swapped.find("--device '^"), std::string::npos) << swapped;
}

// A results failure on a real device gets a source line: the simulator replays the smallest
// failing case with the wrong elements watched, and names the statement that wrote one (mmul's
// off_by_one), or says that none did (vadd's swapped_params, whose output is never written).
void expectStatementThatWrote(const fs::path& mmulOut) {
  std::string md = readText(mmulOut / "off_by_one.md");
  EXPECT_NE(md.find("Replayed on the simulator, where each store is watched: C[0, 0] was last "
                    "written by line 8 (`C[i * N + j] = tmp;`)"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("  - line 8 of `off_by_one.cl`: `C[i * N + j] = tmp;`"), std::string::npos)
      << md;
  json g = readJson(mmulOut / "off_by_one.json");
  bool traced = false;
  for (const auto& d : g["devices"])
    if (d.contains("trace"))
      traced = d["simulator"].get<bool>() && d["trace"]["elements"][0]["stores"] == 1 &&
               d["trace"]["elements"][0]["on_simulator"] == "wrong";
  EXPECT_TRUE(traced) << g["devices"].dump(2);
}

// Every reference solution at the rubric's own case counts, as an instructor runs it, on PoCL and
// Oclgrind; `cases: N` is N distinct cases on each (a size the generator draws again is not
// counted: it used to repeat itself, 4 distinct of 8 on the simulator). The sanitizer's run is
// left to the batches below, which grade each reference with it at the same seed: its sizes are
// its own, the same whatever the case count.
TEST(GradeTool, ReferenceSolutionsScoreFullMarksOnEveryDevice) {
  REQUIRE_DEVICES();
  fs::path out = freshDir("references");
  for (const char* name : {"vadd", "mmul", "mmul_tiled", "pi"}) {
    SCOPED_TRACE(name);
    ToolRun r =
        tool(std::string("grade --assignment ") + name + " " + kRoot + "/kernels/assignments/" +
             name + ".cl --no-sanitize --out " + (out / name).string());
    ASSERT_EQ(r.code, 0) << r.out;
    json g = readJson(out / name / (std::string(name) + ".json"));
    const std::string md = readText(out / name / (std::string(name) + ".md"));
    EXPECT_EQ(g["points"], 100) << md;
    ASSERT_EQ(g["devices"].size(), 2u);  // PoCL, Oclgrind
    const std::string rubric = readText(kRoot + "/specs/assignments/" + name + ".rubric");
    std::smatch real, simulated;
    ASSERT_TRUE(std::regex_search(rubric, real, std::regex(R"(\ncases: (\d+))")));
    ASSERT_TRUE(std::regex_search(rubric, simulated, std::regex(R"(\nsimulator_cases: (\d+))")));
    for (const auto& d : g["devices"]) {
      EXPECT_EQ(d["end"], "completed") << d.dump();
      EXPECT_EQ(d["cases_asked"], std::stoi((d["simulator"].get<bool>() ? simulated : real)[1]));
      EXPECT_EQ(d["distinct_cases"], d["cases_asked"]) << d.dump();
      EXPECT_EQ(d["unit"]["cases_run"], d["cases_asked"]) << "each distinct case ran once";
      EXPECT_NE(md.find(": completed, " + d["cases_asked"].dump() + " distinct cases"),
                std::string::npos)
          << md;
    }
    for (const auto& i : g["items"]) EXPECT_EQ(i["result"], "pass") << i.dump();
  }
}

// vadd's batch holds the hostile ones: a hang, a crash, a build error. The batch goes on after
// each. The hang only has to reach its limit: --timeout 1 stops it after 1 s on PoCL (or 10 times
// the reference's time for its case, if more), then 2 s rerun alone with the limit doubled (the
// simulator's shortened try is 5 s whatever the limit); a hang that no limit stopped would never
// end the batch. The correct cases stay inside 1 s, or 10 times the reference's case on a busy
// machine (GradeUnderLoad grades at --timeout 1 beside two busy processes a core).
// Its feedback is read here too, rather than graded again in tests of their own: the interface
// (three_params, swapped_params) and the statement-that-wrote trace of an unwritten output.
TEST(GradeTool, VaddFaultsLoseTheRightItemsAndTheBatchSurvives) {
  REQUIRE_DEVICES();
  gradeAssignment("vadd", "--timeout 1");

  fs::path out = fs::path(::testing::TempDir()) / "grade_tool_vadd";
  std::string syntax = readText(out / "syntax_error.md");
  EXPECT_NE(syntax.find("Build log:"), std::string::npos) << syntax;
  EXPECT_NE(syntax.find("syntax_error.cl:5:"), std::string::npos)
      << "the log names the student's file" << syntax;
  EXPECT_NE(syntax.find("expected ';'"), std::string::npos) << syntax;

  json crash = readJson(out / "wild_write.json");
  std::string crashText = crash["items"][1]["evidence"].dump();
  EXPECT_NE(crashText.find("crashed (SIGSEGV)"), std::string::npos) << crashText;

  json hang = readJson(out / "infinite_loop.json");
  EXPECT_EQ(hang["items"][0]["result"], "pass") << "it built";
  const std::string hangText = hang["items"][1]["evidence"].dump();
  EXPECT_NE(hangText.find("did not finish this case within its time limit"), std::string::npos)
      << hangText;
  EXPECT_NE(hangText.find("rerun alone with the limit doubled"), std::string::npos) << hangText;
  EXPECT_NE(hangText.find("the reference solution took"), std::string::npos) << hangText;
  for (const auto& d : hang["devices"]) EXPECT_EQ(d["end"], "timeout");

  std::string md = readText(out / "missing_bounds_check.md");
  EXPECT_TRUE(std::regex_search(
      md, std::regex(R"(line \d+ of `missing_bounds_check.cl`: `c\[i\] = a\[i\] \+ b\[i\];`)")))
      << "the student's own line\n"
      << md;
  EXPECT_NE(md.find("Replay: `clharness grade --assignment vadd missing_bounds_check.cl"),
            std::string::npos)
      << md;

  // An uninitialized value points at its declaration as well as its use.
  std::string uninit = readText(out / "uninitialized_default.md");
  EXPECT_NE(uninit.find("line 10 of `uninitialized_default.cl`: `c[get_global_id(0)] = result;`"),
            std::string::npos)
      << uninit;
  EXPECT_NE(uninit.find("line 8 of `uninitialized_default.cl`: `float result;`"), std::string::npos)
      << uninit;
  EXPECT_NE(uninit.find("declared without an initial value: `result` (line 8)"), std::string::npos)
      << uninit;
  // A global index past the data gets the hint about the rounded-up global size.
  std::string offByOne = readText(out / "off_by_one.md");
  EXPECT_NE(offByOne.find("*Hint (global memory):* A work-item reads or writes outside a buffer. "
                          "The global size is often rounded up"),
            std::string::npos)
      << offByOne;
  EXPECT_NE(offByOne.find("(guard zone, global memory)"), std::string::npos) << offByOne;

  expectInterfaceFeedback(out);
  std::string unwritten = readText(out / "swapped_params.md");
  EXPECT_NE(unwritten.find("where each store is watched: no statement of your kernel wrote b[0]"),
            std::string::npos)
      << unwritten;
}

// A submission is built from its own text only: including the reference solution (by a relative
// or an absolute path) or a file of the machine scores 0 with a clear message, and nothing of the
// included file reaches the feedback.
TEST(GradeTool, IncludesAreRefusedAndLeakNothing) {
  REQUIRE_DEVICES();
  fs::path in = freshDir("include_in"), out = freshDir("include_out");
  fs::copy_file(kSubmissions + "/vadd/include_reference.cl", in / "relative.cl");
  fs::copy_file(kSubmissions + "/vadd/file_leak.cl", in / "leak.cl");
  std::ofstream(in / "absolute.cl") << "#include \"" << kRoot << "/kernels/assignments/vadd.cl\"\n";
  // A refused file never reaches a device: Oclgrind alone, whose process costs a tenth of PoCL's,
  // times the reference for the batch.
  ToolRun r = tool("grade --assignment vadd " + in.string() + " --out " + out.string() +
                   " --device Oclgrind --cases 4");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string passwd = readText("/etc/passwd");
  const std::string firstPasswdLine = passwd.substr(0, passwd.find('\n'));
  for (const char* name : {"relative", "absolute", "leak"}) {
    SCOPED_TRACE(name);
    json g = readJson(out / (std::string(name) + ".json"));
    EXPECT_EQ(g["points"], 0);
    EXPECT_EQ(g["items"][0]["id"], "builds");
    EXPECT_EQ(g["items"][0]["result"], "fail");
    EXPECT_EQ(g["items"][0]["kinds"], json::array({"build_error"}));
    const std::string md = readText(out / (std::string(name) + ".md"));
    EXPECT_NE(md.find("'#include' is not allowed: a submission is built from its own text only"),
              std::string::npos)
        << md;
    for (const std::string& text : {readText(out / (std::string(name) + ".json")), md}) {
      EXPECT_EQ(text.find(firstPasswdLine), std::string::npos) << "host text in the feedback";
      EXPECT_EQ(text.find("get_global_id"), std::string::npos) << "the reference's text";
      EXPECT_EQ(text.find(kRoot), std::string::npos) << "a path of the grading machine";
    }
  }
}

// With no simulator and the sanitizer off, a rubric with a simulator item is refused unless the
// instructor says so (with the sanitizer, PoCL judges it: tests/sanitize/wiring_test.cpp).
TEST(GradeTool, UnassessableItemsAreRefusedUnlessAllowed) {
  REQUIRE_DEVICES();
  fs::path out = freshDir("unassessed");
  std::string base = "grade --assignment vadd " + kRoot + "/kernels/assignments/vadd.cl --device " +
                     "'Portable Computing Language' --no-sanitize --cases 3 --out " + out.string();
  ToolRun refused = tool(base);
  EXPECT_EQ(refused.code, 3) << refused.out;
  EXPECT_NE(refused.out.find("item 'clean' (30 points, check: simulator)"), std::string::npos)
      << refused.out;
  EXPECT_NE(refused.out.find("apt-get install oclgrind"), std::string::npos) << refused.out;
  EXPECT_NE(refused.out.find("--allow-unassessed"), std::string::npos) << refused.out;
  EXPECT_FALSE(fs::exists(out / "vadd.json"));

  ToolRun allowed = tool(base + " --allow-unassessed");
  ASSERT_EQ(allowed.code, 0) << allowed.out;
  EXPECT_NE(readText(out / "vadd.md").find("**Not assessed on the grading machine:**"),
            std::string::npos);
  EXPECT_EQ(readJson(out / "vadd.json")["unassessed"], json::array({"clean"}));
  std::string csv = readText(out / "grades.csv");
  EXPECT_NE(csv.find(",total,notes\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",70,not assessed: clean\n"), std::string::npos) << csv;
}

// With the statement that wrote a wrong element (off_by_one), read from the same batch.
TEST(GradeTool, MmulFaultsLoseTheRightItems) {
  REQUIRE_DEVICES();
  gradeAssignment("mmul");
  std::string md = readText(fs::path(::testing::TempDir()) / "grade_tool_mmul" / "wrong_index.md");
  EXPECT_TRUE(std::regex_search(md, std::regex(R"(`C\[\d+, \d+\]: got [^,]+, want )")))
      << "first mismatches\n"
      << md;
  EXPECT_NE(md.find("smallest failing case `N="), std::string::npos) << md;
  expectStatementThatWrote(fs::path(::testing::TempDir()) / "grade_tool_mmul");
}

TEST(GradeTool, TiledFaultsLoseTheRightItemsAndRacesShowBothLines) {
  REQUIRE_DEVICES();
  gradeAssignment("mmul_tiled");
  fs::path out = fs::path(::testing::TempDir()) / "grade_tool_mmul_tiled";
  json g = readJson(out / "missing_barrier.json");
  bool twoLines = false;
  for (const auto& e : g["items"][2]["evidence"])
    for (const auto& f : e["findings"])
      twoLines = twoLines || (f["kind"] == "race" && f["lines"].size() == 2 &&
                              f["lines"][0]["file"] == "missing_barrier.cl" &&
                              !f["lines"][0]["text"].get<std::string>().empty());
  EXPECT_TRUE(twoLines) << g["items"][2].dump(2);
  json ref = readJson(out / "mmul_tiled.json");
  EXPECT_EQ(ref["items"][3]["id"], "speed");
  EXPECT_NE(ref["items"][3]["evidence"][0]["note"].get<std::string>().find(
                "the reference solution's time"),
            std::string::npos);
}

TEST(GradeTool, PiFaultsLoseTheRightItemsAndASimulatorCrashLeavesItsItemToAReview) {
  REQUIRE_DEVICES();
  gradeAssignment("pi");
  // A local-memory off-by-one gets the local-memory hint, not the rounded-up global size.
  std::string local =
      readText(fs::path(::testing::TempDir()) / "grade_tool_pi" / "local_off_by_one.md");
  EXPECT_NE(local.find("*Hint (local memory):* A work-item reads or writes outside a `__local` "
                       "array"),
            std::string::npos)
      << local;
  EXPECT_EQ(local.find("rounded up"), std::string::npos) << local;
  EXPECT_NE(local.find("Invalid read of size 4 at local memory"), std::string::npos) << local;
  json g = readJson(fs::path(::testing::TempDir()) / "grade_tool_pi" / "float4_sums.json");
  bool simulatorCrashed = false;
  for (const auto& d : g["devices"])
    simulatorCrashed = simulatorCrashed || (d["simulator"].get<bool>() && d["end"] == "crashed");
  // Oclgrind died on this correct kernel: PoCL's verdicts stand, and the simulator's item, which
  // nobody else judges, earns nothing and asks for a review (issue 43); else full marks.
  EXPECT_EQ(g["points"], simulatorCrashed ? 70 : 100) << g.dump(2);
  EXPECT_EQ(g["review"].get<bool>(), simulatorCrashed);
  if (simulatorCrashed) {
    EXPECT_FALSE(g["items"][2]["assessed"].get<bool>()) << g["items"][2].dump(2);
    EXPECT_NE(g["items"][2]["note"].get<std::string>().find("Oclgrind"), std::string::npos);
  }
}

// Issue 43: a printf flood that only the simulator prints in full makes it run past its limit
// where the reference solution finished in a fraction of it. The timeout is the kernel's (charged,
// confirmed alone), not a tool's failure, on a correct kernel and on one with an out-of-bounds
// read alike: before, both scored 100 ("pass (a tool failed: not your fault)") while the same page
// said that the kernel did not finish.
TEST(GradeTool, APrintfFloodIsTheKernelsTimeoutOnTheSimulatorToo) {
  REQUIRE_DEVICES();
  fs::path out = freshDir("floods");
  const std::string floods = kSubmissions + "/../floods";
  ToolRun r = tool("grade --assignment vadd " + floods + " --out " + out.string() +
                   " --cases 3 --timeout 2 --jobs 1");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* name : {"printf_flood", "printf_flood_out_of_bounds"}) {
    SCOPED_TRACE(name);
    const std::string md = readText(out / (std::string(name) + ".md"));
    json g = readJson(out / (std::string(name) + ".json"));
    checkGrade(g, expectations(fs::path(floods) / (std::string(name) + ".cl")), md);
    EXPECT_EQ(g["points"], 10) << md;
    bool simulatorTimedOut = false;
    for (const auto& d : g["devices"])
      simulatorTimedOut =
          simulatorTimedOut || (d["simulator"].get<bool>() && d["end"] == "timeout");
    EXPECT_TRUE(simulatorTimedOut) << g["devices"].dump(2);
    EXPECT_NE(g["items"][1]["evidence"].dump().find("the reference solution took"),
              std::string::npos)
        << md;
    // One story per case: no "not your fault" beside "your kernel did not finish".
    EXPECT_EQ(md.find("not your fault"), std::string::npos) << md;
  }
}

TEST(GradeTool, GradescopeResultsJson) {
  REQUIRE_DEVICES();
  fs::path out = freshDir("gradescope");
  // Its point is the file's format: Oclgrind alone finds the out-of-bounds access.
  ToolRun r = tool("grade --assignment vadd " + kSubmissions +
                   "/vadd/off_by_one.cl --format gradescope --device Oclgrind --cases 5 --out " +
                   out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  json gs = readJson(out / "results.json");
  json g = readJson(out / "off_by_one.json");
  EXPECT_EQ(gs["score"], g["points"]);
  ASSERT_EQ(gs["tests"].size(), g["items"].size());
  EXPECT_EQ(gs["tests"][2]["status"], "failed");
  EXPECT_EQ(gs["tests"][2]["score"], 0);
  EXPECT_EQ(gs["tests"][2]["max_score"], 30);
  EXPECT_NE(gs["tests"][2]["output"].get<std::string>().find("out_of_bounds"), std::string::npos);
  EXPECT_TRUE(fs::exists(out / "off_by_one.results.json"));
}

TEST(GradeTool, ExitCodesAtTheEdge) {
  std::string sub = kSubmissions + "/vadd/off_by_one.cl";
  ToolRun unknown = tool("grade --assignment no_such_thing " + sub);
  EXPECT_EQ(unknown.code, 2) << unknown.out;
  EXPECT_NE(unknown.out.find("no such spec"), std::string::npos) << unknown.out;
  EXPECT_EQ(tool("grade --assignment vadd /no/such/file.cl").code, 2);
  EXPECT_EQ(tool("grade --assignment vadd " + sub + " --sizes N=").code, 2);
  ToolRun none = tool("grade --assignment vadd " + sub + " --device 'no device is called this'");
  EXPECT_EQ(none.code, 3) << none.out;
}

TEST(GradeTool, ReplayingACaseRunsOnlyThatCase) {
  REQUIRE_DEVICES();
  ToolRun r = tool("grade --assignment vadd " + kSubmissions +
                   "/vadd/off_by_one.cl --device Oclgrind --sizes G=4,L=4,N=1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("smallest failing case `G=4,L=4,N=1`"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 distinct case\n"), std::string::npos) << r.out;
}

// Processes whose command line mentions `text` (the children of a batch name its folder).
int processesMentioning(const std::string& text) {
  int n = 0;
  for (const auto& e : fs::directory_iterator("/proc")) {
    std::string cmd = readText(e.path() / "cmdline");
    std::replace(cmd.begin(), cmd.end(), '\0', ' ');
    if (cmd.find(text) != std::string::npos && cmd.find("__grade-one") != std::string::npos) ++n;
  }
  return n;
}

TEST(GradeTool, AnInterruptedBatchGradesOnlyWhatIsMissing) {
  REQUIRE_DEVICES();
  fs::path in = freshDir("resume_in"), out = freshDir("resume_out");
  fs::copy_file(kRoot + "/kernels/assignments/vadd.cl", in / "a_reference.cl");
  fs::copy_file(kSubmissions + "/vadd/off_by_one.cl", in / "b_off_by_one.cl");
  fs::copy_file(kSubmissions + "/vadd/infinite_loop.cl", in / "c_hangs.cl");
  fs::copy_file(kRoot + "/kernels/assignments/vadd.cl", in / "d_reference.cl");

  // One at a time, with a long limit: the batch is still on the hang when it is interrupted. Its
  // point is the batch, not the devices: PoCL alone, without the sanitizer, in every run (a grade
  // is kept only where the options it depends on are the same).
  std::string outArg = "--out=" + out.string();
  const std::string pocl = "--device=Portable Computing Language";
  const std::string onPocl = " '" + pocl + "' --no-sanitize --allow-unassessed";
  std::vector<std::string> argv = {CLHARNESS_TOOL, "grade", "--assignment", "vadd",
                                   in.string(),    outArg,  "--jobs",       "1",
                                   "--cases",      "5",     "--timeout",    "120"};
  argv.insert(argv.end(), {pocl, "--no-sanitize", "--allow-unassessed"});
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!(fs::exists(out / "b_off_by_one.json") && processesMentioning(out.string()) > 0) &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(fs::exists(out / "a_reference.json"));
  ASSERT_TRUE(fs::exists(out / "b_off_by_one.json"));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(pid, SIGINT);  // Ctrl-C
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_FALSE(fs::exists(out / "c_hangs.json"));
  EXPECT_FALSE(fs::exists(out / "d_reference.json"));
  // The children die with the batch: nothing keeps running the hang.
  for (int i = 0; i < 50 && processesMentioning(out.string()) > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(processesMentioning(out.string()), 0);

  // The rerun grades the hang to its end: --timeout 1, the floor the hang waits out.
  std::string before = readText(out / "a_reference.json");
  ToolRun again = tool("grade --assignment vadd " + in.string() + " " + outArg +
                       " --cases 5 --timeout 1" + onPocl);
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_NE(again.out.find("2 to grade, 2 already graded (kept)"), std::string::npos) << again.out;
  EXPECT_EQ(readText(out / "a_reference.json"), before) << "a finished grade is not redone";
  EXPECT_TRUE(fs::exists(out / "c_hangs.json"));
  EXPECT_TRUE(fs::exists(out / "d_reference.json"));
  std::string csv = readText(out / "grades.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5) << csv;
  for (const auto& e : fs::directory_iterator(out))
    EXPECT_EQ(e.path().filename().string().find(".work-"), std::string::npos)
        << "scratch left behind";

  // A changed submission is graded again; the others are kept.
  std::ofstream(in / "d_reference.cl", std::ios::app) << "\n// edited\n";
  ToolRun third = tool("grade --assignment vadd " + in.string() + " " + outArg +
                       " --cases 5 --timeout 1" + onPocl);
  EXPECT_NE(third.out.find("1 to grade, 3 already graded (kept)"), std::string::npos) << third.out;
}

}  // namespace
