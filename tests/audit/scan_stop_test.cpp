// Tests of a scan that is stopped before its launches are done (issue 40, item 2): by its own time
// limit, which bounds the whole scan, and by SIGTERM or SIGINT. Each keeps what was found, names
// the launches that did not run, and leaves no process behind. The kernel races in every launch
// and never ends in a launch after the first (tests/audit/kernels/race_then_loop.cl).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "audit/tool_support.hpp"
#include "reliability/process_tree.hpp"

using namespace clh::test;
using namespace clh::test::audit;

namespace {

const std::string kRaceThenLoop =
    "--kernel race_then_loop --global 16 --local 8 --tries 3";  // defaults, n=0, integer buffers 0

// OCLGRIND_NUM_THREADS=2 for the scans of a test (its CPU limits are per simulator thread), so
// that a machine of many cores takes no longer; the value before is put back.
struct TwoSimulatorThreads {
  std::string before;
  bool had = false;
  TwoSimulatorThreads() {
    if (const char* v = std::getenv("OCLGRIND_NUM_THREADS")) had = true, before = v;
    ::setenv("OCLGRIND_NUM_THREADS", "2", 1);
  }
  ~TwoSimulatorThreads() {
    if (had)
      ::setenv("OCLGRIND_NUM_THREADS", before.c_str(), 1);
    else
      ::unsetenv("OCLGRIND_NUM_THREADS");
  }
};

std::vector<std::string> notRun(const nlohmann::json& result) {
  std::vector<std::string> out;
  if (result.is_object())
    for (const auto& l : result.value("not_run", nlohmann::json::array())) out.push_back(l);
  return out;
}

// A child of `tool` running the scan (`clharness __child __scan`), or 0.
pid_t scanChild(pid_t tool) {
  for (pid_t p : descendants(tool))
    if (cmdline(p).find("__scan") != std::string::npos) return p;
  return 0;
}

// The scan started, its first launch done (the line scan prints on stderr when a launch ends),
// then `sig`: the partial report, the interrupt's exit code and no process left.
void interruptAfterTheFirstLaunch(int sig, int expected_code) {
  const std::string name = sig == SIGINT ? "scan_sigint" : "scan_sigterm";
  const std::string json = temp(name + ".json"), log = temp(name + ".log");
  std::filesystem::remove(json);
  std::vector<std::string> args = {"scan", fixture("kernels/race_then_loop.cl")};
  for (const char* a : {"--kernel", "race_then_loop", "--global", "16", "--local", "8", "--tries",
                        "3", "--timeout", "600", "--json"})
    args.push_back(a);
  args.push_back(json);
  const pid_t tool = startTool(args, log);
  ASSERT_GT(tool, 0);
  ASSERT_TRUE(waitFor(
      [&] { return readAll(log).find("scan: launch 1 of 3 (defaults) done") != std::string::npos; },
      300))
      << readAll(log);
  const std::vector<pid_t> children = descendants(tool);
  ASSERT_NE(scanChild(tool), 0) << "the scan's child runs the second launch";
  ASSERT_EQ(::kill(tool, sig), 0);
  EXPECT_EQ(waitTool(tool), expected_code) << readAll(log);
  for (pid_t p : children) EXPECT_TRUE(waitFor([p] { return gone(p); }, 10)) << cmdline(p);

  const auto j = readJson(json);
  ASSERT_TRUE(j.is_object()) << readAll(log);
  EXPECT_EQ(j.value("incomplete", false), true) << j.dump(2);
  EXPECT_EQ(j.value("interrupted_by", ""), sig == SIGINT ? "SIGINT" : "SIGTERM");
  ASSERT_EQ(j["results"].size(), 1u) << j.dump(2);
  ScanOut s;
  s.result = j["results"][0];
  const auto* race = s.find("race");
  ASSERT_NE(race, nullptr) << j.dump(2);  // found by the first launch, before the signal
  EXPECT_EQ(lineSet(*race), (std::set<int>{5}));
  EXPECT_EQ(s.find("timeout"), nullptr) << j.dump(2);
  EXPECT_EQ(notRun(s.result), (std::vector<std::string>{"n=0", "integer buffers 0"})) << j.dump(2);
  const std::string out = readAll(log);
  EXPECT_NE(out.find(std::string("interrupted by ") + (sig == SIGINT ? "SIGINT" : "SIGTERM")),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("not run: n=0; integer buffers 0"), std::string::npos) << out;
  EXPECT_NE(out.find("race"), std::string::npos) << out;
}

TEST(ScanStop, SigtermReportsWhatWasFoundAndTheLaunchesNotRun) {
  REQUIRE_OCLGRIND();
  interruptAfterTheFirstLaunch(SIGTERM, 143);
}

TEST(ScanStop, SigintReportsTheSameAndExits130) {
  REQUIRE_OCLGRIND();
  interruptAfterTheFirstLaunch(SIGINT, 130);
}

// The time limit reached in the second launch: the first launch's race stands (exit 1, by the
// findings), the launches not run are named, and no `timeout` is charged to the kernel, whose
// first launch ended.
TEST(ScanStop, TheTimeLimitKeepsWhatWasFoundAndNamesTheLaunchesNotRun) {
  REQUIRE_OCLGRIND();
  TwoSimulatorThreads threads;
  auto s = scanJson(fixture("kernels/race_then_loop.cl") + " " + kRaceThenLoop + " --timeout 6",
                    "race_then_loop_limit");
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* race = s.find("race");
  ASSERT_NE(race, nullptr) << s.run.out;
  EXPECT_EQ(lineSet(*race), (std::set<int>{5}));
  EXPECT_EQ(s.find("timeout"), nullptr) << s.run.out;
  EXPECT_EQ(notRun(s.result), (std::vector<std::string>{"n=0", "integer buffers 0"}))
      << s.result.dump(2);
  EXPECT_NE(s.run.out.find("not run: n=0; integer buffers 0"), std::string::npos) << s.run.out;
}

// CPU seconds of the children this process waited for since `since` (the tool and its child).
double stopCpuSince(const rusage& since) {
  rusage now{};
  ::getrusage(RUSAGE_CHILDREN, &now);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return sec(now.ru_utime) + sec(now.ru_stime) - sec(since.ru_utime) - sec(since.ru_stime);
}

// --timeout bounds the whole scan: a kernel that never ends on any grid (built as the user asked,
// so no optimised build is tried) uses the limit once in all, its smaller grid included, where each
// child had the whole limit before (twice the CPU time here). CPU time: a busy machine changes
// nothing.
TEST(ScanStop, TheTimeLimitIsTheWholeScansNotEachTrys) {
  REQUIRE_OCLGRIND();
  TwoSimulatorThreads two;
  const unsigned threads = 2;
  const int limit = 4;
  rusage before{};
  ::getrusage(RUSAGE_CHILDREN, &before);
  auto s = scanJson(fixture("kernels/spin.cl") +
                        " --kernel idle --global 16 --local 8 --tries 1 --arg n=2000000000"
                        " --arg out=16 --build-options=-cl-opt-disable --timeout " +
                        std::to_string(limit),
                    "idle_whole_limit");
  const double cpu = stopCpuSince(before);
  EXPECT_EQ(s.run.code, 1) << s.run.out;
  const auto* timeout = s.find("timeout");
  ASSERT_NE(timeout, nullptr) << s.run.out;
  // It did try the smaller grid, within the same limit.
  EXPECT_NE((*timeout)["summary"].get<std::string>().find("1 work-group a dimension"),
            std::string::npos)
      << timeout->dump(2);
  const double budget = static_cast<double>(limit * threads);
  std::cout << "idle: " << cpu << " CPU s in all, limit " << budget << " CPU s\n";
  EXPECT_LT(cpu, budget + 0.5 * budget) << s.run.out;
}

}  // namespace
