// A grade must not depend on how busy the grading machine is: a correct submission graded with four
// busy processes per core beside them (and PoCL's kernel cache empty, as every grading process's
// is) get the same verdicts and points as on a quiet machine, a real infinite loop is still a
// timeout, and its feedback names the reference solution's time for the same case.
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

// Each submission's item results and points, and each device's end, as one comparable value.
json verdicts(const fs::path& out, const std::vector<std::string>& names) {
  json v = json::object();
  for (const auto& n : names) {
    json g = readJson(out / (n + ".json"));
    json items = json::object();
    for (const auto& i : g["items"]) items[i["id"].get<std::string>()] = {i["result"], i["points"]};
    v[n] = {{"points", g["points"]}, {"items", items}};
  }
  return v;
}

// The grading options of both runs: a short case floor, so that a compile counted inside the
// kernel's limit (as before) would fail a correct kernel at once on a busy machine. PoCL only (the
// driver whose compile at first launch made correct kernels time out; the simulator items are
// left unassessed in both runs alike), few cases: on a loaded 2-core machine this takes minutes.
const std::string kOptions =
    " --seed 1 --jobs 1 --cases 4 --timeout 2 --device 'Portable Computing Language' "
    "--allow-unassessed";

TEST(GradeUnderLoad, CorrectKernelsKeepTheirPointsAndAHangIsStillATimeout) {
  REQUIRE_DEVICES();
  for (const std::string assignment : {"mmul"}) {
    SCOPED_TRACE(assignment);
    const fs::path in = clh::test::grade::freshDir("grade_load_in_", assignment);
    writeCorrect(in, assignment);
    std::vector<std::string> names = {"correct_" + assignment};
    if (assignment == "mmul") {
      writeHang(in);
      names.push_back("hang");
    }
    const fs::path quiet = clh::test::grade::freshDir("grade_load_quiet_", assignment);
    ToolRun q = tool("grade --assignment " + assignment + " " + in.string() + " --out " +
                     quiet.string() + kOptions);
    ASSERT_EQ(q.code, 0) << q.out;
    json calm = verdicts(quiet, names);

    const fs::path busy = clh::test::grade::freshDir("grade_load_busy_", assignment);
    ToolRun b;
    {
      BusyMachine load(4);
      ASSERT_GT(load.size(), 0u);
      b = tool("grade --assignment " + assignment + " " + in.string() + " --out " + busy.string() +
               kOptions);
    }
    ASSERT_EQ(b.code, 0) << b.out;
    json loaded = verdicts(busy, names);
    EXPECT_EQ(loaded, calm) << "quiet:\n" << q.out << "\nbusy:\n" << b.out;

    json correct = readJson(busy / ("correct_" + assignment + ".json"));
    for (const auto& i : correct["items"]) {
      if (i["assessed"] != false) {
        EXPECT_EQ(i["result"], "pass") << i.dump();
      }
    }
    if (assignment != "mmul") continue;
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
}

}  // namespace
