// Tests of the one child-process runner (proc/child.hpp): exit codes and signals, the time limit
// and the progress watchdog end the whole process group, captured stdout, a program that does not
// exist, the interrupt flag, and death with the parent even when the parent is SIGKILLed.
#include "proc/child.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "reliability/process_tree.hpp"

namespace fs = std::filesystem;
using clh::test::gone;
using clh::test::waitFor;

namespace {

std::string tempFile(const std::string& name) {
  const fs::path p = fs::path(::testing::TempDir()) / ("clh-child-" + name);
  fs::remove(p);
  return p.string();
}

pid_t pidIn(const std::string& path) {
  std::ifstream in(path);
  pid_t pid = 0;
  in >> pid;
  return pid;
}

TEST(Child, ExitCodeAndSignal) {
  const auto ok = clh::runChild({"/bin/sh", "-c", "exit 3"}, 10);
  EXPECT_TRUE(ok.started);
  EXPECT_EQ(ok.exit_code, 3);
  EXPECT_EQ(ok.signal, 0);
  const auto killed = clh::runChild({"/bin/sh", "-c", "kill -SEGV $$"}, 10);
  EXPECT_EQ(killed.signal, SIGSEGV);
  EXPECT_EQ(clh::signalName(killed.signal), "SIGSEGV");
}

TEST(Child, AProgramThatDoesNotExistIsSaidSo) {
  const auto r = clh::runChild({"/no/such/program"}, 10);
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.error.find("/no/such/program"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("No such file"), std::string::npos) << r.error;
}

TEST(Child, CapturesStdout) {
  clh::ChildOptions o;
  o.timeout_s = 10;
  o.capture_stdout = true;
  const auto r = clh::runChild({"/bin/sh", "-c", "printf 'a%.0s' $(seq 1 100000)"}, o);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, std::string(100000, 'a'));  // more than a pipe holds
}

TEST(Child, TheTimeLimitEndsTheWholeGroup) {
  const std::string pidfile = tempFile("grandchild");
  const auto r =
      clh::runChild({"/bin/sh", "-c", "sleep 30 & echo $! > " + pidfile + "; wait"}, 0.5);
  EXPECT_TRUE(r.timed_out);
  const pid_t grandchild = pidIn(pidfile);
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(waitFor([&] { return gone(grandchild); }, 5));
}

TEST(Child, AStalledProgressFileEndsTheChild) {
  const std::string progress = tempFile("progress");
  const auto r =
      clh::runChild({"/bin/sh", "-c", "echo x > " + progress + "; sleep 30"}, 0, progress, 0.3);
  EXPECT_TRUE(r.timed_out);
  EXPECT_TRUE(r.stalled);
}

// A driver's compile (its line contains the marker) and making a context (before the first line)
// run on the slow limit; the step after the compile is back on the idle limit.
TEST(Child, ACompileRunsOnItsOwnLimitAndTheStepAfterItOnTheIdleOne) {
  const std::string progress = tempFile("slow");
  clh::ChildOptions o;
  o.progress = progress;
  o.idle_s = 0.4;
  o.slow_idle_s = 20;
  o.slow_marker = "\"build_start\"";
  const std::string build = "echo '{\"event\":\"build_start\"}' >> " + progress + "; sleep 1.2; ";
  const auto compiled = clh::runChild(
      {"/bin/sh", "-c", "sleep 1.2; " + build + "echo '{\"event\":\"build_end\"}' >> " + progress},
      o);
  EXPECT_FALSE(compiled.timed_out) << "1.2 s to start and 1.2 s to compile, each under 20 s";
  EXPECT_EQ(compiled.exit_code, 0);

  fs::remove(progress);
  const auto stuck = clh::runChild({"/bin/sh", "-c",
                                    build + "echo '{\"event\":\"build_end\"}' >> " + progress +
                                        "; echo shape >> " + progress + "; sleep 30"},
                                   o);
  EXPECT_TRUE(stuck.stalled) << "after the compile, 0.4 s of silence is a stall";

  o.slow_idle_s = 0;  // no slow limit: the compile is held to the idle one, as before
  fs::remove(progress);
  const auto old = clh::runChild({"/bin/sh", "-c", build}, o);
  EXPECT_TRUE(old.stalled);
}

TEST(Child, AnInterruptEndsTheChild) {
  clh::installInterruptHandlers();
  ASSERT_EQ(::raise(SIGTERM), 0);  // recorded, not fatal
  EXPECT_EQ(clh::interruptRequested(), SIGTERM);
  EXPECT_EQ(clh::interruptExitCode(), 143);
  const auto r = clh::runChild({"/bin/sleep", "30"}, 0);
  EXPECT_TRUE(r.interrupted);
  EXPECT_FALSE(r.timed_out);
  clh::clearInterruptForTesting();
  ::signal(SIGTERM, SIG_DFL);
  ::signal(SIGINT, SIG_DFL);
}

TEST(Child, ChildrenDieWithAParentKilledBySigkill) {
  const std::string pidfile = tempFile("orphan");
  const pid_t parent = ::fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {  // a parent that runs one child, then is killed
    clh::runChild({"/bin/sh", "-c", "echo $$ > " + pidfile + "; exec sleep 30"}, 0);
    ::_exit(0);
  }
  ASSERT_TRUE(waitFor([&] { return pidIn(pidfile) > 0; }, 10));
  const pid_t child = pidIn(pidfile);
  ASSERT_FALSE(gone(child));
  ::kill(parent, SIGKILL);
  int status = 0;
  ::waitpid(parent, &status, 0);
  EXPECT_TRUE(waitFor([&] { return gone(child); }, 5)) << "pid " << child << " outlived its parent";
}

}  // namespace
