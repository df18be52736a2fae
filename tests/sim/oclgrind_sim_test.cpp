// Simulator tests: the kernels of tests/sim/kernels run on Oclgrind with the clharness plugin, and
// the findings drained after each launch. Skipped, visibly, where Oclgrind is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include "scenarios.hpp"
#include "sim/tool_failure.hpp"

namespace {

using clh::Finding;
using clh::FindingKind;
using namespace clh::simtest;

/// One session and one Oclgrind context for the whole binary: the environment must be set before
/// the first OpenCL call, which happens here and not while tests are listed.
class OclgrindTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!session_) {
      const std::string plugin = clh::findOclgrindPlugin();
      ASSERT_FALSE(plugin.empty()) << "the clharness Oclgrind plugin was not built";
      const auto log = std::filesystem::temp_directory_path() /
                       ("clharness-sim-oclgrind-" + std::to_string(::getpid()) + ".jsonl");
      std::filesystem::remove(log);
      session_ = std::make_unique<clh::OclgrindSession>(plugin, log.string());
      session_->applyToProcess();
    }
    cl::Device device;
    found_ = findOclgrind(device);
    if (found_ && !target_)
      target_ = std::make_unique<OclgrindTarget>(makeTarget(device, *session_));
  }

  /// The context goes before main returns: Oclgrind 21.10 crashes in LLVM's destructors when a
  /// context is released during exit (a static's destructor), after LLVM's own statics are gone.
  static void TearDownTestSuite() { target_.reset(); }

  void SetUp() override {
    if (!found_) GTEST_SKIP() << "Oclgrind is not installed or not registered: no simulator test";
    session_->drain();  // whatever an earlier test left
  }

  static clh::OclgrindLog drainLog(const std::string& source_file = "") {
    clh::OclgrindParseOptions options;
    options.source_file = source_file;
    return session_->drainLog(options);
  }

  static std::vector<Finding> ofKind(const std::vector<Finding>& findings, FindingKind kind) {
    std::vector<Finding> out;
    for (const Finding& finding : findings) {
      if (finding.kind == kind) out.push_back(finding);
    }
    return out;
  }

  static std::set<int> lineNumbers(const Finding& finding) {
    std::set<int> out;
    for (const clh::SourceLine& line : finding.lines) out.insert(line.line);
    return out;
  }

  static inline std::unique_ptr<clh::OclgrindSession> session_;
  static inline std::unique_ptr<OclgrindTarget> target_;
  static inline bool found_ = false;
};

TEST_F(OclgrindTest, MissingSecondBarrierIsALocalReadWriteRaceWithBothLines) {
  // FACTS.md: N=512, TS=16 takes minutes on Oclgrind; N=32, TS=8 shows the same race in seconds.
  const int n = 32, ts = 8;
  const auto start = std::chrono::steady_clock::now();
  const std::vector<float> c = runTiledMatmul(*target_, n, ts, /*drop_second_barrier=*/true);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("simulator_seconds", std::to_string(seconds));

  // Oclgrind runs work-items one after another: the racy result is still right.
  for (float value : c) ASSERT_FLOAT_EQ(value, 2.0f * n);

  const clh::OclgrindLog log = drainLog("tests/sim/kernels/tiled_matmul.cl");
  ASSERT_EQ(log.launches.size(), 1u);
  EXPECT_EQ(log.launches[0].kernel, "mmul");
  EXPECT_TRUE(log.launches[0].ended);
  const std::vector<Finding> findings = log.allFindings();
  ASSERT_FALSE(findings.empty());
  std::set<std::set<int>> pairs;
  for (const Finding& finding : findings) {
    EXPECT_EQ(finding.kind, FindingKind::race) << finding.summary;
    EXPECT_EQ(finding.address_space, "local") << finding.summary;
    EXPECT_EQ(finding.summary.rfind("Read-write data race", 0), 0u) << finding.summary;
    ASSERT_EQ(finding.lines.size(), 2u);
    EXPECT_EQ(finding.lines[0].file, "tests/sim/kernels/tiled_matmul.cl");
    pairs.insert(lineNumbers(finding));
  }
  // The inner-product read (line 15) races with the next tile's stores (lines 11 and 12).
  EXPECT_EQ(pairs, (std::set<std::set<int>>{{11, 15}, {12, 15}}));
}

TEST_F(OclgrindTest, CorrectTiledMatmulHasNoFinding) {
  const int n = 32, ts = 8;
  const auto start = std::chrono::steady_clock::now();
  const std::vector<float> c = runTiledMatmul(*target_, n, ts, /*drop_second_barrier=*/false);
  RecordProperty(
      "simulator_seconds",
      std::to_string(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
  for (float value : c) ASSERT_FLOAT_EQ(value, 2.0f * n);
  const clh::OclgrindLog log = drainLog();
  // The launch was seen with race detection on, so "no finding" means something.
  ASSERT_EQ(log.launches.size(), 1u);
  EXPECT_TRUE(log.launches[0].ended);
  EXPECT_FALSE(log.launches[0].singleItemGroups());
  ASSERT_TRUE(log.checks.has_value());
  EXPECT_TRUE(log.checks->data_races);
  EXPECT_TRUE(log.checks->uninitialized);
  EXPECT_TRUE(log.allFindings().empty());
}

TEST_F(OclgrindTest, SameSlotWrittenByEveryWorkItemIsAWriteWriteRace) {
  runOneBufferKernel(*target_, "write_write.cl", "last_writer", 16, 8, sizeof(int));
  const std::vector<Finding> findings = session_->drain();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::race);
  EXPECT_EQ(findings[0].address_space, "local");
  EXPECT_EQ(findings[0].summary.rfind("Write-write data race", 0), 0u) << findings[0].summary;
  EXPECT_EQ(lineNumbers(findings[0]), (std::set<int>{4}));
  EXPECT_EQ(findings[0].lines.size(), 2u);
}

TEST_F(OclgrindTest, WorkGroupsWritingOneGlobalWordIsAGlobalRaceFoundAtKernelEnd) {
  runOneBufferKernel(*target_, "global_race.cl", "group_writer", 32, 8, 0);
  const clh::OclgrindLog log = drainLog();
  ASSERT_EQ(log.launches.size(), 1u);
  const std::vector<Finding> findings = log.allFindings();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::race);
  EXPECT_EQ(findings[0].address_space, "global");
  EXPECT_EQ(findings[0].summary.rfind("Write-write data race at global memory", 0), 0u)
      << findings[0].summary;
  EXPECT_EQ(lineNumbers(findings[0]), (std::set<int>{5}));
  // Groups 1..3 each race with group 0: work-items of at least two different groups are named.
  std::set<std::string> groups;
  for (const std::string& item : findings[0].work_items)
    groups.insert(item.substr(item.find("group")));
  EXPECT_GE(groups.size(), 2u);
}

TEST_F(OclgrindTest, RacesOfManyPairsAtOneLineAreCountedNotWritten) {
  // 8 work-groups of 64 write the same 64 words: hundreds of reports of one race, each naming
  // other work-items. The plugin writes 256 of them and one line standing for the rest.
  const auto before = std::filesystem::file_size(session_->logPath());
  runOneBufferKernel(*target_, "many_pairs.cl", "same_words", 512, 64, 0);
  std::ifstream in(session_->logPath());
  in.seekg(static_cast<std::streamoff>(before));
  size_t lines = 0, repeats = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.find("data race") == std::string::npos) continue;
    ++lines;
    if (line.find("\"repeats\"") != std::string::npos) ++repeats;
  }
  EXPECT_LE(lines, 257u);
  EXPECT_EQ(repeats, 1u);
  const std::vector<Finding> races = ofKind(session_->drain(), FindingKind::race);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(lineNumbers(races[0]), (std::set<int>{4}));
  EXPECT_NE(races[0].summary.find(" reports)"), std::string::npos) << races[0].summary;
}

TEST_F(OclgrindTest, WriteOnePastTheEndIsOutOfBounds) {
  runOneBufferKernel(*target_, "out_of_bounds.cl", "shift_write", 16, 8, 0);
  const std::vector<Finding> findings = session_->drain();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::out_of_bounds);
  EXPECT_EQ(findings[0].address_space, "global");
  EXPECT_EQ(findings[0].work_items,
            (std::vector<std::string>{"global(15,0,0) local(7,0,0) group(1,0,0)"}));
  EXPECT_EQ(lineNumbers(findings[0]), (std::set<int>{4}));
}

TEST_F(OclgrindTest, UnwrittenLocalMemoryIsUninitialized) {
  runOneBufferKernel(*target_, "uninitialized.cl", "read_unset", 16, 8, 8 * sizeof(float));
  const std::vector<Finding> findings = session_->drain();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::uninitialized);
  EXPECT_EQ(lineNumbers(findings[0]), (std::set<int>{5}));
}

TEST_F(OclgrindTest, BarrierReachedByHalfTheGroupIsDivergence) {
  runOneBufferKernel(*target_, "divergence.cl", "half_barrier", 16, 8, 0);
  const std::vector<Finding> findings = session_->drain();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::divergence);
  EXPECT_EQ(lineNumbers(findings[0]), (std::set<int>{5}));
  EXPECT_EQ(findings[0].work_items.size(), 2u);  // both work-groups
}

TEST_F(OclgrindTest, BadLocalSizeIsAnApiErrorThroughTheContextCallback) {
  EXPECT_EQ(enqueueBadLocalSize(*target_), CL_INVALID_WORK_GROUP_SIZE);
  const std::vector<Finding> findings = session_->drain();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, FindingKind::api_error);
  EXPECT_NE(findings[0].summary.find("clEnqueueNDRangeKernel: CL_INVALID_WORK_GROUP_SIZE"),
            std::string::npos)
      << findings[0].summary;
}

TEST_F(OclgrindTest, NullLocalSizeHidesTheRaceAndSaysSo) {
  // Work-groups of one work-item: the write-write race above cannot show (a known limit).
  cl::Program program = buildKernelFile(*target_, "write_write.cl", "");
  cl::Buffer buffer(target_->context, CL_MEM_READ_WRITE, 16 * sizeof(int));
  cl::Kernel kernel(program, "last_writer");
  kernel.setArg(0, buffer);
  kernel.setArg(1, cl::Local(sizeof(int)));
  target_->queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(16), cl::NullRange);
  target_->queue.finish();
  const clh::OclgrindLog log = drainLog();
  ASSERT_EQ(log.launches.size(), 1u);
  EXPECT_TRUE(log.launches[0].singleItemGroups());
  EXPECT_TRUE(ofKind(log.allFindings(), FindingKind::race).empty());
}

TEST_F(OclgrindTest, PowerOfTwoTestNeedsTheRetryWithoutOptimisation) {
  // Oclgrind 21.10 builds this correct kernel but cannot create it ("Undefined external function:
  // llvm.ctpop.i32", on stderr only) when optimised (the user's -O2 here: by default the
  // unoptimised build comes first); the runner's rule retries with the other build.
  std::vector<clh::SimulatorFailure> failures;
  cl::Kernel kernel;
  const clh::SimulatorBuildResult result = clh::prepareOnSimulator(
      "-O2", [&](const std::string& options) -> std::optional<clh::SimulatorFailure> {
        cl::Program program(target_->context, kernelSource("power_of_two.cl"));
        try {
          program.build(std::vector<cl::Device>{target_->device}, options.c_str());
        } catch (const cl::BuildError& error) {
          std::string log;
          for (const auto& [device, text] : error.getBuildLog()) log += text;
          return clh::SimulatorFailure{"clBuildProgram", error.err(), log, false};
        }
        try {
          kernel = cl::Kernel(program, "is_pow2");
          return std::nullopt;
        } catch (const cl::Error& error) {
          clh::SimulatorFailure failure;
          failure.function = "clCreateKernel";
          failure.error_code = error.err();
          for (const Finding& finding : session_->drain()) failure.text += finding.raw;
          const std::string names = program.getInfo<CL_PROGRAM_KERNEL_NAMES>();
          failure.kernel_listed = names.find("is_pow2") != std::string::npos;
          failures.push_back(failure);
          return failure;
        }
      });
  ASSERT_EQ(failures.size(), 1u) << "Oclgrind created the kernel at once: the workaround may go";
  EXPECT_EQ(failures[0].error_code, CL_INVALID_KERNEL_NAME);
  EXPECT_TRUE(failures[0].kernel_listed);
  EXPECT_TRUE(clh::isSimulatorToolFailure(failures[0]));
  EXPECT_TRUE(result.retried);
  // The user's -O2 goes: beside it, -cl-opt-disable still gave Oclgrind an optimised program.
  EXPECT_EQ(result.options, "-cl-opt-disable");
  EXPECT_EQ(result.first_options, "-O2");
  ASSERT_FALSE(result.finding.has_value()) << result.finding->summary;

  // The retried kernel runs and is right.
  std::vector<int> in(16), out(16, -1);
  for (int i = 0; i < 16; ++i) in[i] = i;
  cl::Buffer din(target_->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(int) * 16,
                 in.data());
  cl::Buffer dout(target_->context, CL_MEM_WRITE_ONLY, sizeof(int) * 16);
  kernel.setArg(0, din);
  kernel.setArg(1, dout);
  target_->queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(16), cl::NDRange(8));
  target_->queue.enqueueReadBuffer(dout, CL_TRUE, 0, sizeof(int) * 16, out.data());
  for (int i = 0; i < 16; ++i) {
    const bool power = i > 0 && (i & (i - 1)) == 0;
    EXPECT_EQ(out[i], power ? 1 : 0) << "n=" << i;
  }
  EXPECT_TRUE(session_->drain().empty());
}

}  // namespace
