// A corpus of hostile kernels (tests/reliability/hostile: an endless loop, a loop only at the
// simulator's sizes, far out-of-bounds writes, huge private and __local arrays, a million printfs,
// an extension the device lacks, and 1 MB of source made here) through `scan` and `grade`: each
// costs only itself, says what happened in a line, and the batch completes. Short time limits.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "reliability/process_tree.hpp"
#include "support/tool_run.hpp"

namespace fs = std::filesystem;
using clh::test::readAll;
using clh::test::runTool;

namespace {

const std::string kHostile = std::string(CLH_RELIABILITY_DIR) + "/hostile";

// The corpus in a fresh folder, with the 1 MB source written there.
std::vector<fs::path> corpus(const fs::path& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kHostile))
    if (e.path().extension() == ".cl") {
      fs::copy_file(e.path(), dir / e.path().filename());
      out.push_back(dir / e.path().filename());
    }
  std::ofstream big(dir / "megabyte_source.cl");
  big << "// Hostile vadd: 1 MB of source (functions nobody calls), then a correct kernel.\n";
  for (int k = 0; big.tellp() < (1 << 20); ++k)
    big << "float unused_" << k << "(float x) { return x * " << k << ".0f + 1.0f; }\n";
  big << "__kernel void vadd(__global const float* a, __global const float* b, __global float* c,"
         " const unsigned int count) {\n  const size_t i = get_global_id(0);\n"
         "  if (i < count) c[i] = a[i] + b[i];\n}\n";
  big.close();
  out.push_back(dir / "megabyte_source.cl");
  std::sort(out.begin(), out.end());
  return out;
}

bool haveDevice(const std::string& regex) {
  return runTool("devices --device '" + regex + "'").code == 0;
}

// --timeout 1: the limit only has to be reached. It is CPU time on each simulator thread, and a
// never-ending kernel waits it out three times (the grid, then 2 and 1 work-groups a dimension),
// so the test's time is about three limits per endless kernel; the kernels that end (out of
// bounds, huge __local) take a tenth of a CPU second, whatever the machine's load.
TEST(Hostile, ScanGivesEachKernelALineAndAnEnd) {
  if (!haveDevice("Oclgrind")) GTEST_SKIP() << "no Oclgrind here";
  const fs::path dir = fs::path(::testing::TempDir()) / "clh-hostile-scan";
  const auto files = corpus(dir);
  ASSERT_EQ(files.size(), 8u);
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    const std::string json = (dir / (f.stem().string() + ".json")).string();
    const auto r = runTool("scan '" + f.string() +
                           "' --kernel vadd --global 16 --local 4 --arg count=16 --timeout 1 "
                           "--json " +
                           json);
    // 0 clean, 1 diagnostics: a kernel's behaviour is never a usage error or a crash of the tool.
    EXPECT_TRUE(r.code == 0 || r.code == 1) << r.code << "\n" << r.out.substr(0, 4000);
    std::ifstream in(json);
    const auto j = nlohmann::json::parse(in, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.out;
    ASSERT_EQ(j["results"].size(), 1u) << j.dump(2);
    const auto& result = j["results"][0];
    std::set<std::string> kinds;
    for (const auto& finding : result["findings"]) kinds.insert(finding["kind"]);
    std::cout << f.filename().string() << ": " << result["findings"].size() << " finding(s)\n";
    const std::string name = f.stem().string();
    // What each must show (the kernels that only cost time may also end at the limit).
    if (name == "infinite_loop" || name == "loop_at_simulator_sizes") {
      EXPECT_TRUE(kinds.count("timeout")) << result.dump(2);
    }
    if (name == "far_out_of_bounds") {
      EXPECT_TRUE(kinds.count("out_of_bounds")) << result.dump(2);
    }
    if (name == "huge_local") {
      EXPECT_FALSE(kinds.empty()) << result.dump(2);
    }
  }
}

// --timeout 1: the limit only has to be reached. An endless kernel waits it out on PoCL (1 s, or 10
// times the reference's case, then twice that rerun alone, which holds the other job back), and on
// the simulator a shortened try of 5 s whatever the limit; the printf flood, which ends on PoCL,
// waits out its limit and twice it on the simulator.
TEST(Hostile, AGradeBatchCompletesAndEachCostsOnlyItself) {
  if (!haveDevice("Portable Computing Language")) GTEST_SKIP() << "no PoCL here";
  const fs::path dir = fs::path(::testing::TempDir()) / "clh-hostile-grade";
  fs::remove_all(dir);  // grade resumes from what an earlier batch left in --out
  const auto files = corpus(dir / "submissions");
  fs::copy_file(fs::path(CLHARNESS_SOURCE_ROOT) / "kernels/assignments/vadd.cl",
                dir / "submissions" / "reference.cl");
  const fs::path out = dir / "out";
  const auto r = runTool("grade --assignment vadd '" + (dir / "submissions").string() +
                         "' --out '" + out.string() + "' --timeout 1 --cases 3 --jobs 2");
  EXPECT_EQ(r.code, 0) << r.out.substr(0, 4000);
  // The reference beside them keeps every point.
  std::ifstream rin(out / "reference.json");
  const auto ref = nlohmann::json::parse(rin, nullptr, false);
  ASSERT_FALSE(ref.is_discarded()) << r.out;
  EXPECT_EQ(ref["points"], ref["max_points"]) << readAll((out / "reference.md").string());
  // A copy of the reference solution is a submission like the others: its own grading processes,
  // not the calibration's run of the assignment's file.
  for (const auto& d : ref["devices"])
    EXPECT_EQ(d.value("note", "").find("the reference solution's own file"), std::string::npos)
        << d.dump();
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    std::ifstream in(out / (f.stem().string() + ".json"));
    const auto g = nlohmann::json::parse(in, nullptr, false);
    ASSERT_FALSE(g.is_discarded()) << "no grade for it\n" << r.out;
    EXPECT_TRUE(g.contains("points"));
    // Its feedback says what happened in a line of its own.
    EXPECT_FALSE(readAll((out / (f.stem().string() + ".md")).string()).empty());
  }
  for (const char* lost :
       {"infinite_loop", "far_out_of_bounds", "huge_local", "missing_extension"}) {
    std::ifstream in(out / (std::string(lost) + ".json"));
    const auto g = nlohmann::json::parse(in, nullptr, false);
    ASSERT_FALSE(g.is_discarded()) << lost;
    EXPECT_LT(g["points"], g["max_points"]) << lost << "\n" << g.dump(2);
  }
  // The endless one loses its results item for the timeout itself, not as a consequence of
  // another loss: "fewer points" alone would hold for a hang charged as anything.
  std::ifstream hin(out / "infinite_loop.json");
  const auto hang = nlohmann::json::parse(hin, nullptr, false);
  ASSERT_FALSE(hang.is_discarded());
  bool timedOut = false;
  for (const auto& item : hang["items"])
    if (item["id"] == "correct")
      for (const auto& kind : item["kinds"]) timedOut = timedOut || kind == "timeout";
  EXPECT_TRUE(timedOut) << hang.dump(2);
  const std::string csv = readAll((out / "grades.csv").string());
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), static_cast<long>(files.size()) + 2) << csv;
}

}  // namespace
