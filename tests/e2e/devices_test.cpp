// End-to-end tests of how the tool finds devices: runs side by side with different driver sets do
// not disturb each other, a run leaves no ICD folder behind, and `--device` takes what people type.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "support/scratch.hpp"
#include "support/tool_run.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace {

using clh::test::Scratch;
using clh::test::slurp;

using clh::test::runTool;

// The tool started with `env` settings, its output to `log`; returns its pid.
pid_t startTool(const std::vector<std::string>& env, const std::vector<std::string>& args,
                const std::string& log) {
  std::vector<std::string> argv = {"/usr/bin/env"};
  argv.insert(argv.end(), env.begin(), env.end());
  argv.push_back(CLHARNESS_TOOL);
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = -1;
  if (posix_spawn(&pid, cargv[0], &fa, nullptr, cargv.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

int waitExit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

std::vector<std::string> icdFoldersIn(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind("clharness-icd-", 0) == 0)
      out.push_back(e.path().string());
  return out;
}

// The .icd file of the system's PoCL, "" when there is none.
std::string poclIcd() {
  const char* user = std::getenv("OCL_ICD_VENDORS");
  std::error_code ec;
  for (const fs::path& dir :
       {fs::path(user && *user ? user : "/etc/OpenCL/vendors"), fs::path("/etc/OpenCL/vendors")})
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".icd" && slurp(e.path()).find("pocl") != std::string::npos)
        return e.path().string();
  return "";
}

// The library the tool registers by itself (IcdConfig::extra_libraries) whatever the vendors
// folder holds.
bool oclgrindInstalled() {
  return fs::exists("/usr/lib/x86_64-linux-gnu/oclgrind/liboclgrind-rt-icd.so") ||
         fs::exists("/usr/lib/oclgrind/liboclgrind-rt-icd.so");
}

// What a run's verdicts are, timings left out: (unit, device, status, cases run) per unit.
using Verdict = std::tuple<std::string, std::string, std::string, int>;
std::multiset<Verdict> verdicts(const std::string& json_path) {
  std::multiset<Verdict> out;
  std::ifstream in(json_path);
  const auto report = nlohmann::json::parse(in, nullptr, false);
  if (report.is_discarded() || !report.contains("units")) return out;
  for (const auto& u : report["units"])
    out.insert({u.at("spec").get<std::string>() + " [" + u.value("family", "cases") + "]",
                u.at("device").get<std::string>(), u.at("status").get<std::string>(),
                u.at("cases_run").get<int>()});
  return out;
}

const std::string kSpec = std::string(CLHARNESS_SOURCE_ROOT) + "/specs/handson/vadd.yaml";

// Run A has PoCL (its vendors folder holds only PoCL's .icd) and checks on it; run B has an empty
// vendors folder, so only the Oclgrind the tool registers by itself, and checks on that. Started
// one after the other, they overlap: B starts while A's child processes are still to come. Each
// must give the verdicts it gives alone, and neither may leave its ICD folder behind.
TEST(Devices, RunsSideBySideWithOtherDriversGiveTheirOwnVerdicts) {
  const std::string pocl = poclIcd();
  if (pocl.empty()) GTEST_SKIP() << "no PoCL .icd here";
  if (!oclgrindInstalled()) GTEST_SKIP() << "no Oclgrind here";
  Scratch s("side-by-side");
  const fs::path tmp = s.dir / "tmp", onlyPocl = s.dir / "pocl-only", none = s.dir / "none";
  for (const auto& d : {tmp, onlyPocl, none}) fs::create_directories(d);
  fs::copy_file(pocl, onlyPocl / fs::path(pocl).filename());
  // TMPDIR is the same for both, as it is for two runs of one user.
  auto envA =
      std::vector<std::string>{"TMPDIR=" + tmp.string(), "OCL_ICD_VENDORS=" + onlyPocl.string()};
  auto envB =
      std::vector<std::string>{"TMPDIR=" + tmp.string(), "OCL_ICD_VENDORS=" + none.string()};
  auto args = [&](const std::string& device, const std::string& json) {
    return std::vector<std::string>{"check",   kSpec, "--device", device, "--launch-shapes", "5",
                                    "--cases", "3",   "--seed",   "1",    "--json",          json};
  };
  const std::string aAlone = (s.dir / "a-alone.json").string(),
                    bAlone = (s.dir / "b-alone.json").string(),
                    aBoth = (s.dir / "a-both.json").string(),
                    bBoth = (s.dir / "b-both.json").string();

  const pid_t a1 = startTool(envA, args("Portable Computing Language", aAlone),
                             (s.dir / "a-alone.log").string());
  const int a1rc = waitExit(a1);
  const pid_t b1 = startTool(envB, args("Oclgrind", bAlone), (s.dir / "b-alone.log").string());
  const int b1rc = waitExit(b1);
  const auto wantA = verdicts(aAlone), wantB = verdicts(bAlone);
  ASSERT_FALSE(wantA.empty()) << slurp(s.dir / "a-alone.log");
  ASSERT_FALSE(wantB.empty()) << slurp(s.dir / "b-alone.log");
  for (const auto& v : wantA)
    ASSERT_NE(std::get<2>(v), "tool_error") << slurp(s.dir / "a-alone.log");
  for (const auto& v : wantB)
    ASSERT_NE(std::get<2>(v), "tool_error") << slurp(s.dir / "b-alone.log");

  EXPECT_TRUE(icdFoldersIn(tmp).empty()) << "left behind: " << icdFoldersIn(tmp).front();
  for (const auto& f : icdFoldersIn(tmp)) fs::remove_all(f);

  // B starts as soon as A has written its ICD folder: before A has started its child processes.
  const pid_t a2 =
      startTool(envA, args("Portable Computing Language", aBoth), (s.dir / "a-both.log").string());
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (icdFoldersIn(tmp).empty() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const pid_t b2 = startTool(envB, args("Oclgrind", bBoth), (s.dir / "b-both.log").string());
  const int a2rc = waitExit(a2), b2rc = waitExit(b2);

  EXPECT_EQ(verdicts(aBoth), wantA) << slurp(s.dir / "a-both.log");
  EXPECT_EQ(verdicts(bBoth), wantB) << slurp(s.dir / "b-both.log");
  EXPECT_EQ(a2rc, a1rc) << slurp(s.dir / "a-both.log");
  EXPECT_EQ(b2rc, b1rc) << slurp(s.dir / "b-both.log");
  EXPECT_TRUE(icdFoldersIn(tmp).empty()) << "left behind: " << icdFoldersIn(tmp).front();
}

TEST(Devices, ARunStoppedBySigtermRemovesItsIcdFolder) {
  if (runTool("devices --device pocl").code != 0) GTEST_SKIP() << "no PoCL here";
  Scratch s("sigterm");
  const std::string log = (s.dir / "run.log").string();
  const pid_t pid = startTool({"TMPDIR=" + s.dir.string()},
                              {"check", kSpec, "--device", "pocl", "--cases", "1000"}, log);
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (icdFoldersIn(s.dir).empty() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_FALSE(icdFoldersIn(s.dir).empty()) << slurp(log);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // its children are running
  kill(pid, SIGTERM);
  // check ends its children, writes what finished and exits 143 (docs/cli.md).
  EXPECT_EQ(waitExit(pid), 128 + SIGTERM) << slurp(log);
  EXPECT_TRUE(icdFoldersIn(s.dir).empty()) << slurp(log);
}

TEST(Devices, ARunThatEndsRemovesItsIcdFolder) {
  Scratch s("normal-exit");
  const std::string log = (s.dir / "run.log").string();
  const pid_t pid = startTool({"TMPDIR=" + s.dir.string()}, {"devices"}, log);
  const int rc = waitExit(pid);
  EXPECT_TRUE(rc == 0 || rc == 3) << slurp(log);
  EXPECT_TRUE(icdFoldersIn(s.dir).empty()) << slurp(log);
}

// --device takes a vendor, a kind, a row number of `clharness devices`, a part of the name.
TEST(Devices, DeviceTakesWhatPeopleType) {
  const auto table = runTool("devices --json");
  if (table.code != 0) GTEST_SKIP() << "no device here";
  const auto all = nlohmann::json::parse(table.out.substr(table.out.find('[')));
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all[0]["number"], 1);
  const auto second = all.size() > 1 ? all[1] : all[0];
  const std::string n = std::to_string(second["number"].get<int>());
  const auto byNumber = runTool("devices --json --device " + n);
  ASSERT_EQ(byNumber.code, 0) << byNumber.out;
  const auto one = nlohmann::json::parse(byNumber.out.substr(byNumber.out.find('[')));
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0]["device"], second["device"]);
  EXPECT_EQ(one[0]["number"], second["number"]);

  bool haveNvidia = false;
  for (const auto& d : all)
    haveNvidia |= d["platform"].get<std::string>().find("NVIDIA") != std::string::npos;
  if (!haveNvidia) {
    const auto r = runTool("check " + kSpec + " --device nvidia");
    EXPECT_EQ(r.code, 3) << r.out;
    EXPECT_NE(r.out.find("selects none of the devices found here"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("#1  " + all[0]["platform"].get<std::string>()), std::string::npos)
        << r.out;
  }
  const auto text = runTool("devices");
  EXPECT_EQ(text.out.rfind(" # PLATFORM", 0), 0u) << text.out;
}

TEST(Devices, ReadmeExampleFindsPocl) {
  if (poclIcd().empty()) GTEST_SKIP() << "no PoCL .icd here";
  for (const char* word : {"pocl", "cpu", "PoCL", "portable computing"}) {
    const auto r = runTool(std::string("devices --device '") + word + "'");
    EXPECT_EQ(r.code, 0) << word << ": " << r.out;
    EXPECT_NE(r.out.find("Portable Computing Language"), std::string::npos) << r.out;
  }
  if (oclgrindInstalled()) {
    const auto r = runTool("devices --device sim");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("Oclgrind"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("Portable Computing Language"), std::string::npos) << r.out;
  }
}

}  // namespace
