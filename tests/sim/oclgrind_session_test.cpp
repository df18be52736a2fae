// OclgrindSession without Oclgrind: the environment it sets, draining by offsets (whole lines
// only), and API errors arriving through the context callback.
#include "sim/oclgrind_session.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

namespace {

namespace fs = std::filesystem;

/// A scratch folder with a stand-in plugin file and a log path, removed afterwards.
class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("clharness-session-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    plugin_ = (dir_ / "plugin.so").string();
    std::ofstream(plugin_) << "stand-in";
    log_ = (dir_ / "log.jsonl").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  void append(const std::string& text) {
    std::ofstream out(log_, std::ios::app);
    out << text;
  }

  static std::string oob(int launch) {
    return R"({"v":1,"event":"message","pid":1,"context":1,"launch":)" + std::to_string(launch) +
           R"(,"kernel":"k","type":"error","text":"Invalid write of size 4 at global memory address 0x10"})";
  }

  fs::path dir_;
  std::string plugin_;
  std::string log_;
};

TEST_F(SessionTest, MissingPluginIsAnEnvironmentError) {
  EXPECT_THROW(clh::OclgrindSession((dir_ / "nope.so").string(), log_), std::runtime_error);
  EXPECT_THROW(clh::OclgrindSession(plugin_, (dir_ / "no-dir" / "log.jsonl").string()),
               std::runtime_error);
}

TEST_F(SessionTest, EnvironmentLoadsPluginAndSwitchesChecksOn) {
  const clh::OclgrindSession session(plugin_, log_);
  std::map<std::string, std::string> env;
  for (const auto& [name, value] : session.environment()) env[name] = value;
  EXPECT_EQ(env["OCLGRIND_PLUGINS"], plugin_);
  EXPECT_EQ(env["CLHARNESS_OCLGRIND_LOG"], log_);
  EXPECT_EQ(env["OCLGRIND_DATA_RACES"], "1");
  EXPECT_EQ(env["OCLGRIND_UNINITIALIZED"], "1");
  EXPECT_EQ(env["OCLGRIND_CHECK_API"], "1");
  EXPECT_EQ(env.size(), 5u);
  EXPECT_TRUE(fs::exists(log_));  // created up front, so a bad path fails early
}

TEST_F(SessionTest, ASkippedCheckIsSwitchedOffAndTheLargestGroupRaised) {
  ::setenv(clh::kSkipChecksVariable, "uninitialized", 1);
  clh::OclgrindSession session(plugin_, log_);
  ::unsetenv(clh::kSkipChecksVariable);
  ASSERT_EQ(session.skippedChecks(),
            (std::vector<clh::OclgrindCheck>{clh::OclgrindCheck::uninitialized}));
  session.setMaxWorkGroupSize(2048);
  std::map<std::string, std::string> env;
  for (const auto& [name, value] : session.environment()) env[name] = value;
  EXPECT_EQ(env["OCLGRIND_UNINITIALIZED"], "0");
  EXPECT_EQ(env["OCLGRIND_DATA_RACES"], "1");
  EXPECT_EQ(env["OCLGRIND_MAX_WGSIZE"], "2048");
}

TEST_F(SessionTest, ApplyToProcessSetsTheVariables) {
  const clh::OclgrindSession session(plugin_, log_);
  session.applyToProcess();
  EXPECT_EQ(std::string(std::getenv("OCLGRIND_PLUGINS")), plugin_);
  EXPECT_EQ(std::string(std::getenv("CLHARNESS_OCLGRIND_LOG")), log_);
  EXPECT_EQ(std::string(std::getenv("OCLGRIND_DATA_RACES")), "1");
}

TEST_F(SessionTest, DrainReturnsOnlyWhatWasLoggedSinceTheLastDrain) {
  append(oob(1) + "\n");  // before the session: never reported
  clh::OclgrindSession session(plugin_, log_);
  EXPECT_TRUE(session.drain().empty());

  append(oob(2) + "\n");
  std::vector<clh::Finding> first = session.drain();
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].kind, clh::FindingKind::out_of_bounds);
  EXPECT_TRUE(session.drain().empty());

  // A line being written is left for the next drain, then read whole.
  const std::string line = oob(3);
  append(line.substr(0, 20));
  EXPECT_TRUE(session.drain().empty());
  append(line.substr(20) + "\n");
  EXPECT_EQ(session.drain().size(), 1u);
}

TEST_F(SessionTest, DrainWithOptionsRenamesTheSourceFile) {
  clh::OclgrindSession session(plugin_, log_);
  append(
      R"({"v":1,"event":"message","pid":1,"context":1,"launch":1,"kernel":"k","type":"error",)"
      R"("text":"Invalid write of size 4 at global memory address 0x10\n\tAt line 3 of input.cl:\n\t  x;"})"
      "\n");
  clh::OclgrindParseOptions options;
  options.source_file = "kernels/a.cl";
  const std::vector<clh::Finding> findings = session.drain(options);
  ASSERT_EQ(findings.size(), 1u);
  ASSERT_EQ(findings[0].lines.size(), 1u);
  EXPECT_EQ(findings[0].lines[0].file, "kernels/a.cl");
  EXPECT_EQ(findings[0].lines[0].line, 3);
}

TEST_F(SessionTest, ContextCallbackRecordsApiErrorsEitherWayTheDataArrives) {
  clh::OclgrindSession session(plugin_, log_);
  const char* text =
      "\nOclgrind - OpenCL runtime error detected\n\tFunction: clCreateKernel\n\tError:    "
      "CL_INVALID_KERNEL_NAME\n\tKernel 'k' not found\n";
  // A conforming driver: user_data last.
  clh::OclgrindSession::contextNotify(text, nullptr, 0, &session);
  // Oclgrind 21.10: the user data as private_info, cb 0, user_data NULL.
  clh::OclgrindSession::contextNotify(text, &session, 0, nullptr);
  // Neither: nothing to record into, and no crash.
  clh::OclgrindSession::contextNotify(text, nullptr, 0, nullptr);

  clh::OclgrindParseOptions unmerged;
  unmerged.merge = false;
  const std::vector<clh::Finding> findings = session.drain(unmerged);
  ASSERT_EQ(findings.size(), 2u);
  for (const clh::Finding& finding : findings) {
    EXPECT_EQ(finding.kind, clh::FindingKind::api_error);
    EXPECT_EQ(finding.summary,
              "OpenCL API error in clCreateKernel: CL_INVALID_KERNEL_NAME (Kernel 'k' not found)");
  }
}

TEST_F(SessionTest, DrainLogKeepsLaunchesApart) {
  clh::OclgrindSession session(plugin_, log_);
  append(
      R"({"v":1,"event":"kernel_begin","pid":1,"context":1,"launch":1,"kernel":"k","work_dim":1,"global_size":[8,1,1],"local_size":[4,1,1],"global_offset":[0,0,0]})"
      "\n" +
      oob(1) + "\n" +
      R"({"v":1,"event":"kernel_end","pid":1,"context":1,"launch":1,"kernel":"k"})"
      "\n" +
      R"({"v":1,"event":"kernel_begin","pid":1,"context":1,"launch":2,"kernel":"k","work_dim":1,"global_size":[8,1,1],"local_size":[4,1,1],"global_offset":[0,0,0]})"
      "\n");
  const clh::OclgrindLog log = session.drainLog({});
  ASSERT_EQ(log.launches.size(), 2u);
  EXPECT_EQ(log.launches[0].findings.size(), 1u);
  EXPECT_TRUE(log.launches[0].ended);
  EXPECT_TRUE(log.launches[1].findings.empty());
  EXPECT_FALSE(log.launches[1].ended);
}

TEST(OclgrindPlugin, CandidatesIncludeTheFolderOfTheExecutable) {
  const std::vector<std::string> candidates = clh::oclgrindPluginCandidates();
  ASSERT_FALSE(candidates.empty());
  const fs::path exe = fs::read_symlink("/proc/self/exe");
  const std::string beside = (exe.parent_path() / clh::kOclgrindPluginFileName).string();
  EXPECT_NE(std::find(candidates.begin(), candidates.end(), beside), candidates.end());
#ifdef CLHARNESS_EXPECT_PLUGIN_BUILT
  // This build made the plugin: its path comes first and exists.
  EXPECT_TRUE(fs::is_regular_file(candidates.front())) << candidates.front();
  EXPECT_EQ(clh::findOclgrindPlugin(), candidates.front());
#endif
}

}  // namespace
