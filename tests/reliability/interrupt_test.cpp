// Tests of `clharness check` when runs end badly: SIGTERM and SIGINT mid-run (a partial, marked
// report and no process left), SIGKILL of the parent (its children die with it, the next run
// removes its folders), --resume (every unit exactly once), two runs into one report (whole
// files), a grading batch interrupted (it says what was graded), and sizes that cannot exist.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>

#include "core/run_folders.hpp"
#include "reliability/pocl_support.hpp"
#include "reliability/process_tree.hpp"
#include "support/tool_run.hpp"

namespace fs = std::filesystem;
using namespace clh::test;
using reliability::kPocl;
using reliability::kSpecs;

namespace {

std::string scratch(const std::string& name) {
  return reliability::scratch("clh-rely-", name);
}

// The journal's finished units (lines with "event": "unit").
int journalUnits(const std::string& path) {
  std::ifstream in(path);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.value("event", "") == "unit") ++n;
  }
  return n;
}

// A child of `tool` running a unit (`clharness __unit`), or 0.
pid_t unitChild(pid_t tool) {
  for (pid_t p : descendants(tool))
    if (cmdline(p).find("__unit") != std::string::npos) return p;
  return 0;
}

// Runs the interrupt fixture (a quick spec, then one that never ends), waits until the quick
// unit is in the journal and the hanging one runs, sends `sig`, and checks what is left.
void interruptMidRun(int sig, int expected_code) {
  const std::string dir = scratch(std::to_string(sig));
  const std::string json = dir + "/r.json", junit = dir + "/r.xml", log = dir + "/log";
  const pid_t tool =
      startTool({"check", kSpecs + "/interrupt", "--device", kPocl, "--cases", "2",
                 "--launch-shapes", "0", "--timeout", "300", "--json", json, "--junit", junit},
                log);
  ASSERT_GT(tool, 0);
  ASSERT_TRUE(waitFor([&] { return journalUnits(json + ".journal") == 1 && unitChild(tool); }, 120))
      << readAll(log);
  const std::vector<pid_t> children = descendants(tool);
  ASSERT_FALSE(children.empty());
  ASSERT_EQ(::kill(tool, sig), 0);
  EXPECT_EQ(waitTool(tool), expected_code) << readAll(log);
  for (pid_t p : children) EXPECT_TRUE(waitFor([p] { return gone(p); }, 10)) << cmdline(p);

  std::ifstream jf(json);
  const auto j = nlohmann::json::parse(jf, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << readAll(json);
  EXPECT_EQ(j.value("incomplete", false), true) << j.dump(2);
  EXPECT_EQ(j.value("interrupted_by", ""), sig == SIGINT ? "SIGINT" : "SIGTERM");
  EXPECT_EQ(j.value("units_planned", 0), 2);
  ASSERT_EQ(j.at("units").size(), 1u) << j.dump(2);
  EXPECT_EQ(j["units"][0]["spec"], "a_quick");
  EXPECT_EQ(j["units"][0]["status"], "pass");

  // Well-formed XML (xmllint, when installed), marked incomplete.
  const std::string xml = readAll(junit);
  EXPECT_NE(xml.find("incomplete=\"true\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("</testsuites>"), std::string::npos) << xml;
  if (std::system("command -v xmllint >/dev/null 2>&1") == 0) {
    EXPECT_EQ(std::system(("xmllint --noout '" + junit + "'").c_str()), 0) << xml;
  }
  EXPECT_NE(readAll(log).find("interrupted by"), std::string::npos) << readAll(log);
  // The journal stays for --resume.
  EXPECT_EQ(journalUnits(json + ".journal"), 1);
}

TEST(Interrupt, SigtermLeavesAPartialReportAndNoProcess) {
  REQUIRE_POCL();
  interruptMidRun(SIGTERM, 143);
}

TEST(Interrupt, SigintLeavesAPartialReportAndNoProcess) {
  REQUIRE_POCL();
  interruptMidRun(SIGINT, 130);
}

TEST(Interrupt, KillNineOfTheParentLeavesNoChild) {
  REQUIRE_POCL();
  const std::string dir = scratch("kill9");
  fs::create_directories(dir + "/tmp");
  const char* was = std::getenv("TMPDIR");
  const std::string before = was ? was : "";
  setenv("TMPDIR", (dir + "/tmp").c_str(), 1);  // the tool's, inherited
  const pid_t tool = startTool({"check", kSpecs + "/interrupt/b_hang.yaml", "--device", kPocl,
                                "--launch-shapes", "0", "--timeout", "300"},
                               dir + "/log");
  if (was)
    setenv("TMPDIR", before.c_str(), 1);
  else
    unsetenv("TMPDIR");
  ASSERT_GT(tool, 0);
  ASSERT_TRUE(waitFor([&] { return unitChild(tool) != 0; }, 60)) << readAll(dir + "/log");
  const std::vector<pid_t> children = descendants(tool);
  ASSERT_EQ(::kill(tool, SIGKILL), 0);
  EXPECT_EQ(waitTool(tool), 128 + SIGKILL);
  for (pid_t p : children) EXPECT_TRUE(waitFor([p] { return gone(p); }, 10)) << cmdline(p);
  // Issue 43: its scratch and ICD folders stay, and the next run removes them (not a live run's).
  auto left = [&] {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir + "/tmp"))
      if (clh::runFolderOwner(e.path().filename().string()) == tool)
        names.push_back(e.path().filename().string());
    return names;
  };
  // Its scratch folder and its ICD folders: the private one, and one a driver that names that
  // driver alone for the unit's process (cl/driver_alone.hpp).
  const std::vector<std::string> killed = left();
  const std::string id = std::to_string(tool);
  const auto icd = std::count_if(killed.begin(), killed.end(), [&](const std::string& n) {
    return n.rfind("clharness-icd-" + id + "-", 0) == 0;
  });
  EXPECT_EQ(std::count(killed.begin(), killed.end(), "clharness-" + id), 1) << killed.size();
  EXPECT_EQ(icd, 2) << "the private folder and PoCL's alone, of " << killed.size();
  const ToolRun next = runToolWithEnv("TMPDIR=" + dir + "/tmp", "devices --device pocl");
  EXPECT_EQ(next.code, 0) << next.out;
  EXPECT_TRUE(left().empty()) << left().front();
}

TEST(Interrupt, ResumeRunsEveryUnitExactlyOnce) {
  REQUIRE_POCL();
  const std::string dir = scratch("resume");
  const std::string json = dir + "/r.json";
  // A first run killed (SIGKILL: no report at all) once its first unit is in the journal.
  // No driver checks: they are no unit, and a resumed run's driver section is
  // AResumedRunKeepsTheLaunchFamiliesOfItsDriverSection's.
  const pid_t tool =
      startTool({"check", kSpecs + "/interrupt", "--device", kPocl, "--cases", "2",
                 "--launch-shapes", "0", "--no-driver-checks", "--timeout", "300", "--json", json},
                dir + "/log1");
  ASSERT_GT(tool, 0);
  ASSERT_TRUE(
      waitFor([&] { return journalUnits(json + ".journal") == 1 && unitChild(tool); }, 120));
  ::kill(tool, SIGKILL);
  waitTool(tool);
  EXPECT_FALSE(fs::exists(json));

  // Other options than the journal's: refused.
  const ToolRun other = runTool(
      "check " + kSpecs + "/interrupt --device '" + kPocl +
      "' --cases 3 --launch-shapes 0 --no-driver-checks --timeout 1 --json " + json + " --resume");
  EXPECT_EQ(other.code, 2) << other.out;
  EXPECT_NE(other.out.find("other options"), std::string::npos) << other.out;

  // The same options (a shorter time limit is no other unit): the quick unit is not run again.
  const ToolRun r = runTool("check " + kSpecs + "/interrupt --device '" + kPocl +
                            "' --cases 2 --launch-shapes 0 --no-driver-checks --timeout 1 --json " +
                            json + " --resume");
  EXPECT_EQ(r.code, 1) << r.out;  // the hanging unit times out (1 s, then 2 s alone)
  EXPECT_NE(r.out.find("resuming: 1 finished units"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("a_quick on " + kPocl), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pass (2 cases, from the journal)"), std::string::npos) << r.out;
  std::ifstream jf(json);
  const auto j = nlohmann::json::parse(jf);
  EXPECT_FALSE(j.contains("incomplete"));
  std::map<std::string, int> seen;
  for (const auto& u : j.at("units")) ++seen[u.at("spec").get<std::string>()];
  EXPECT_EQ(seen, (std::map<std::string, int>{{"a_quick", 1}, {"b_hang", 1}}));
  EXPECT_FALSE(fs::exists(json + ".journal"));  // a complete report needs no journal
}

// The driver ids of a report's first driver section that come from launch families ("shape.").
std::set<std::string> shapeFindings(const std::string& json_path) {
  std::ifstream in(json_path);
  const auto j = nlohmann::json::parse(in, nullptr, false);
  std::set<std::string> ids;
  if (j.is_discarded() || !j.contains("drivers") || j["drivers"].empty()) return ids;
  for (const auto& f : j["drivers"][0].value("findings", nlohmann::json::array()))
    if (f.value("check", "").rfind("shape.", 0) == 0) ids.insert(f.value("check", ""));
  return ids;
}

// A resumed run's driver section is the one a whole run gives: the launch families of the units
// it takes from the journal are kept there with them, not only their verdicts.
TEST(Interrupt, AResumedRunKeepsTheLaunchFamiliesOfItsDriverSection) {
  REQUIRE_POCL();
  const std::string dir = scratch("resume-launch");
  const std::string json = dir + "/r.json", whole = dir + "/whole.json";
  const std::string options =
      " --device '" + kPocl + "' --cases 2 --launch-shapes 40 --no-driver-checks --jobs 1 --json ";
  const pid_t tool = startTool(
      {"check", kSpecs + "/resume_launch", "--device", kPocl, "--cases", "2", "--launch-shapes",
       "40", "--no-driver-checks", "--jobs", "1", "--timeout", "300", "--json", json},
      dir + "/log1");
  ASSERT_GT(tool, 0);
  // a_pi's cases and launch units are in the journal, b_hang's cases run: kill the run.
  ASSERT_TRUE(waitFor([&] { return journalUnits(json + ".journal") == 2 && unitChild(tool); }, 240))
      << readAll(dir + "/log1");
  ::kill(tool, SIGKILL);
  waitTool(tool);
  // The journal keeps the launch unit's family, every shape of it.
  std::ifstream jl(json + ".journal");
  size_t shapes = 0;
  for (std::string line; std::getline(jl, line);) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.contains("extra"))
      shapes = j["extra"].value("shapes", nlohmann::json::array()).size();
  }
  EXPECT_EQ(shapes, 40u);

  const ToolRun resumed =
      runTool("check " + kSpecs + "/resume_launch" + options + json + " --timeout 2 --resume");
  EXPECT_EQ(resumed.code, 1) << resumed.out;  // b_hang times out
  EXPECT_NE(resumed.out.find("a_pi [launch] on " + kPocl), std::string::npos) << resumed.out;
  const ToolRun fresh =
      runTool("check " + kSpecs + "/resume_launch/a_pi.yaml" + options + whole + " --timeout 300");
  EXPECT_EQ(fresh.code, 0) << fresh.out;
  EXPECT_EQ(shapeFindings(json), shapeFindings(whole));
}

TEST(Interrupt, TwoRunsIntoOneReportGiveWholeFiles) {
  REQUIRE_POCL();
  const std::string dir = scratch("twice");
  const std::string json = dir + "/r.json", junit = dir + "/r.xml";
  std::vector<std::string> args = {"check", kSpecs + "/quick", "--device", kPocl,     "--cases",
                                   "3",     "--json",          json,       "--junit", junit};
  const pid_t a = startTool(args, dir + "/a.log"), b = startTool(args, dir + "/b.log");
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);
  EXPECT_EQ(waitTool(a), 0) << readAll(dir + "/a.log");
  EXPECT_EQ(waitTool(b), 0) << readAll(dir + "/b.log");
  std::ifstream jf(json);
  const auto j = nlohmann::json::parse(jf, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << readAll(json);
  EXPECT_EQ(j.at("units").size(), 6u);  // 3 specs x (cases + launch)
  if (std::system("command -v xmllint >/dev/null 2>&1") == 0) {
    EXPECT_EQ(std::system(("xmllint --noout '" + junit + "'").c_str()), 0) << readAll(junit);
  }
  for (const auto& e : fs::directory_iterator(dir))  // no temporary file left
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

// Two grade batches into one --out folder: each file either run writes is whole (written to a
// temporary file, then renamed), the gradebook has one row per submission, nothing is left over.
TEST(Interrupt, TwoGradeRunsIntoOneFolderGiveWholeFiles) {
  REQUIRE_POCL();
  const std::string dir = scratch("grade-twice");
  const fs::path in = fs::path(dir) / "in", out = fs::path(dir) / "out";
  fs::create_directories(in);
  const std::string subs = std::string(CLH_RELIABILITY_DIR) + "/../grade/submissions/vadd/";
  const std::vector<std::string> names = {"off_by_one.cl", "missing_bounds_check.cl"};
  for (const auto& n : names) fs::copy_file(subs + n, in / n);
  fs::copy_file(std::string(CLHARNESS_SOURCE_ROOT) + "/kernels/assignments/vadd.cl",
                in / "reference.cl");
  // Its point is the folder, not the devices: PoCL alone, without the sanitizer, few cases; the
  // two runs still start together and write the same files.
  const std::vector<std::string> args = {
      "grade",    "--assignment", "vadd",          in.string(), "--out", out.string(),
      "--device", kPocl,          "--no-sanitize", "--cases",   "2",     "--allow-unassessed"};
  const pid_t a = startTool(args, dir + "/a.log"), b = startTool(args, dir + "/b.log");
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);
  const int ca = waitTool(a), cb = waitTool(b);
  EXPECT_TRUE(ca == 0 || ca == 1) << readAll(dir + "/a.log");  // 1: a submission lost points
  EXPECT_TRUE(cb == 0 || cb == 1) << readAll(dir + "/b.log");
  size_t grades = 0;
  for (const auto& e : fs::directory_iterator(out)) {
    const std::string name = e.path().filename().string();
    EXPECT_EQ(name.find(".tmp-"), std::string::npos) << "left over: " << name;
    EXPECT_NE(name.rfind(".work-", 0), 0u) << "left over: " << name;
    if (e.path().extension() != ".json") continue;
    std::ifstream jf(e.path());
    const auto j = nlohmann::json::parse(jf, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << name << " is not whole: " << readAll(e.path().string());
    ++grades;
  }
  EXPECT_GE(grades, 3u);
  const std::string csv = readAll((out / "grades.csv").string());
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4) << csv;  // a header and 3 rows
}

// Issue 43: SIGTERM ended a grading batch with exit 143 and whole files, but the console did not
// say the batch was interrupted, nor which submissions were graded.
TEST(Interrupt, AnInterruptedGradeBatchSaysWhatWasGraded) {
  REQUIRE_POCL();
  const std::string dir = scratch("grade-term");
  const fs::path in = fs::path(dir) / "in", out = fs::path(dir) / "out";
  fs::create_directories(in);
  fs::copy_file(std::string(CLHARNESS_SOURCE_ROOT) + "/kernels/assignments/vadd.cl",
                in / "a_ok.cl");
  fs::copy_file(std::string(CLH_RELIABILITY_DIR) + "/../grade/submissions/vadd/infinite_loop.cl",
                in / "b_hang.cl");
  const pid_t tool = startTool(
      {"grade", "--assignment", "vadd", in.string(), "--out", out.string(), "--device", kPocl,
       "--no-sanitize", "--jobs", "1", "--cases", "2", "--timeout", "60", "--allow-unassessed"},
      dir + "/log");
  ASSERT_GT(tool, 0);
  ASSERT_TRUE(waitFor([&] { return fs::exists(out / "a_ok.json"); }, 120)) << readAll(dir + "/log");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // b_hang is running
  ASSERT_EQ(::kill(tool, SIGTERM), 0);
  EXPECT_EQ(waitTool(tool), 143) << readAll(dir + "/log");
  const std::string log = readAll(dir + "/log");
  EXPECT_NE(log.find("interrupted by SIGTERM: 1 of 2 submissions graded (a_ok); not graded: "
                     "b_hang"),
            std::string::npos)
      << log;
  EXPECT_FALSE(fs::exists(out / "b_hang.json"));
  for (const auto& e : fs::directory_iterator(out))
    EXPECT_NE(e.path().filename().string().rfind(".work-", 0), 0u) << "left over: " << e.path();
}

TEST(BadSizes, AHugeBufferIsASkippedCaseNamingTheBufferNotAToolError) {
  REQUIRE_POCL();
  const std::string dir = scratch("huge");
  const ToolRun r = runTool("check " + kSpecs + "/huge_buffer.yaml --device '" + kPocl +
                            "' --cases 3 --json " + dir + "/r.json");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("bad_alloc"), std::string::npos) << r.out;
  std::ifstream jf(dir + "/r.json");
  const auto j = nlohmann::json::parse(jf);
  ASSERT_EQ(j.at("units").size(), 2u);
  for (const auto& u : j["units"]) {
    EXPECT_EQ(u["status"], "skipped") << u.dump(2);
    const std::string message = u["message"];
    EXPECT_NE(message.find("buffers.a (line 9)"), std::string::npos) << message;
    EXPECT_NE(message.find("bytes"), std::string::npos) << message;
    EXPECT_NE(message.find("CL_DEVICE_MAX_MEM_ALLOC_SIZE"), std::string::npos) << message;
  }
}

TEST(BadSizes, AnInvertedRangeIsASpecErrorWithFileAndLine) {
  const ToolRun r = runTool("check " + kSpecs + "/inverted_range.yaml");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("inverted_range.yaml:6: params.N.range: [4096, 1] is empty"),
            std::string::npos)
      << r.out;
}

}  // namespace
