// A grade must not depend on how busy the grading machine is: a correct submission graded with
// busy processes beside it (and PoCL's kernel cache empty, as every grading process's is) keeps
// every point, as on a quiet machine, a real infinite loop is still a timeout, and its feedback
// names the reference solution's time for the same case.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "grade_tool_support.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using clh::test::ToolRun;
using namespace clh::test::grade;

// Processes that do nothing but spin, as long as the object lives (and no longer than this test
// process: each dies with it).
class BusyMachine {
 public:
  explicit BusyMachine(unsigned perCore) {
    const unsigned n = perCore * std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < n; ++i) {
      const pid_t pid = fork();
      if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        volatile unsigned long x = 0;
        for (;;) x = x + 1;
      }
      if (pid > 0) pids_.push_back(pid);
    }
  }
  ~BusyMachine() {
    for (pid_t p : pids_) kill(p, SIGKILL);
    for (pid_t p : pids_) waitpid(p, nullptr, 0);
  }
  size_t size() const { return pids_.size(); }

 private:
  std::vector<pid_t> pids_;
};

// The assignment's reference solution, as a student's correct submission.
void writeCorrect(const fs::path& dir, const std::string& assignment) {
  fs::copy_file(kRoot + "/kernels/assignments/" + assignment + ".cl",
                dir / ("correct_" + assignment + ".cl"));
}

// mmul with a loop whose index never advances: it never ends on any device.
void writeHang(const fs::path& dir) {
  std::ofstream(dir / "hang.cl")
      << "__kernel void mmul(const int N, __global float* A, __global float* B,\n"
         "                   __global float* C) {\n"
         "  const int row = get_global_id(0), col = get_global_id(1);\n"
         "  float acc = 0.0f;\n"
         "  for (int k = 0; k < N;) acc += A[row * N + k] * B[k * N + col];\n"
         "  C[row * N + col] = acc;\n"
         "}\n";
}

// The grading options: a short case floor, so that a driver's compile counted inside the kernel's
// limit (PhaseWatch leaving build_start..build_end out of a case's time, time_limits.cpp) would
// time a correct kernel out on a busy machine. PoCL only (the driver whose compile at first launch
// made correct kernels time out), with its sanitizer, which judges the clean item there; few
// cases. The load and the limit are the smallest tried at which that compile counted (the
// mutation: no build_start seen) fails this test, through the sanitizer's run stopped in its
// compile: two busy processes per core and --timeout 1 (one per core at --timeout 2 passed
// with it). The two submissions are graded at once (--jobs 2: 30 s of this serial test rather
// than 37, each grading process with no more of a core than before); the mutation still fails.
const std::string kOptions =
    " --seed 1 --jobs 2 --cases 4 --timeout 1 --device 'Portable Computing Language' "
    "--allow-unassessed";
constexpr unsigned kBusyPerCore = 2;

// The correct submission keeps every point, every item judged (the sanitizer's run, which an
// early end leaves the clean item unassessed, included): what a quiet machine gives it.
void expectFullMarks(const json& correct) {
  EXPECT_EQ(correct["points"], correct["max_points"]) << correct.dump(2);
  for (const auto& i : correct["items"]) {
    EXPECT_EQ(i["result"], "pass") << i.dump();
    EXPECT_NE(i["assessed"], false) << i.dump();
  }
}

TEST(GradeUnderLoad, CorrectKernelsKeepTheirPointsAndAHangIsStillATimeout) {
  REQUIRE_DEVICES();
  const fs::path in = clh::test::grade::freshDir("grade_load_in_", "mmul");
  writeCorrect(in, "mmul");
  writeHang(in);
  const fs::path busy = clh::test::grade::freshDir("grade_load_busy_", "mmul");
  ToolRun b;
  {
    BusyMachine load(kBusyPerCore);
    ASSERT_GT(load.size(), 0u);
    b = tool("grade --assignment mmul " + in.string() + " --out " + busy.string() + kOptions);
  }
  ASSERT_EQ(b.code, 0) << b.out;
  expectFullMarks(readJson(busy / "correct_mmul.json"));

  json hang = readJson(busy / "hang.json");
  const std::string md = readText(busy / "hang.md");
  bool timedOut = false;
  for (const auto& i : hang["items"])
    if (i["id"] == "correct")
      for (const auto& k : i["kinds"]) timedOut = timedOut || k == "timeout";
  EXPECT_TRUE(timedOut) << md;
  EXPECT_NE(md.find("the reference solution took"), std::string::npos) << md;
  EXPECT_NE(md.find("rerun alone with the limit doubled"), std::string::npos) << md;
}

}  // namespace
