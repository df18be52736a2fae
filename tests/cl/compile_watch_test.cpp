// The compile-crash watch (cl/compile_watch.hpp): which launches may compile, the frame rule (code
// loaded since the first launch on the stack: the kernel's, else the driver's), and the event line
// a process that really dies from a signal leaves behind.
#include "cl/compile_watch.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace {

using clh::noteLaunch;
using clh::wouldReportCompileCrashForTesting;

int kernelA = 0, kernelB = 0;  // stand-ins for two kernels' handles

int reportNow() {
  return wouldReportCompileCrashForTesting() ? 1 : 0;
}

using CallThrough = int (*)(int (*)());

CallThrough g_through = nullptr;  // the probe module's function, once loaded

// Loads the probe module after the process's first launch, so that it is not in the base.
CallThrough loadProbeAfterAFirstLaunch() {
  if (!g_through) {
    clh::watchLaunchCompiles(dup(2));
    noteLaunch(&kernelA, {16});  // takes the base, when no launch did before
    clh::endLaunches();
    void* lib = dlopen(CLH_COMPILE_WATCH_PROBE, RTLD_NOW | RTLD_LOCAL);
    if (lib) g_through = reinterpret_cast<CallThrough>(dlsym(lib, "clh_call_through"));
  }
  return g_through;
}

// Runs `body` in a forked child whose events go to a pipe: what the child wrote, and its signal.
std::pair<std::string, int> inChild(void (*body)()) {
  int fds[2];
  if (pipe(fds) != 0) return {"", -1};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    clh::watchLaunchCompiles(fds[1]);
    body();
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buf[256];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return {out, WIFSIGNALED(status) ? WTERMSIG(status) : 0};
}

}  // namespace

TEST(CompileWatch, OnlyTheFirstLaunchOfASizeMayCompileUntilTheCaseEnds) {
  const int fd = dup(2);
  clh::watchLaunchCompiles(fd);
  noteLaunch(&kernelA, {4});
  EXPECT_TRUE(wouldReportCompileCrashForTesting());
  clh::endLaunches();
  EXPECT_FALSE(wouldReportCompileCrashForTesting());
  noteLaunch(&kernelA, {4});  // compiled already: a crash in it is not the compiler's
  EXPECT_FALSE(wouldReportCompileCrashForTesting());
  noteLaunch(&kernelA, {8});
  EXPECT_TRUE(wouldReportCompileCrashForTesting());
  clh::endLaunches();
  noteLaunch(&kernelB, {4});  // another kernel at a size seen: new
  EXPECT_TRUE(wouldReportCompileCrashForTesting());
  clh::endLaunches();
}

TEST(CompileWatch, CodeLoadedSinceTheFirstLaunchOnTheStackIsTheKernels) {
  CallThrough through = loadProbeAfterAFirstLaunch();
  noteLaunch(&kernelA, {17});
  ASSERT_NE(through, nullptr) << dlerror();
  EXPECT_EQ(reportNow(), 1);          // from the test's own code: the driver's
  EXPECT_EQ(through(&reportNow), 0);  // from inside the loaded module: the kernel's
  clh::endLaunches();
}

TEST(CompileWatch, AProcessThatDiesInTheCompileStepLeavesTheEvent) {
  const auto [out, sig] = inChild([] {
    noteLaunch(&kernelA, {2, 2});
    abort();  // as a compiler's failed assertion
  });
  EXPECT_EQ(sig, SIGABRT);
  EXPECT_EQ(out, "{\"event\":\"launch_compile_crash\",\"local\":[2,2]}\n");

  const auto [quiet, sig2] = inChild([] {
    noteLaunch(&kernelA, {3});
    clh::endLaunches();  // the case ended: a later death is not a launch's compile
    abort();
  });
  EXPECT_EQ(sig2, SIGABRT);
  EXPECT_EQ(quiet, "");
}

TEST(CompileWatch, AProcessThatDiesInTheKernelsCodeLeavesNoEvent) {
  ASSERT_NE(loadProbeAfterAFirstLaunch(), nullptr) << dlerror();
  const auto [out, sig] = inChild([] {
    noteLaunch(&kernelB, {5});
    g_through([] {
      raise(SIGSEGV);  // the kernel's wild store, with the module's frame on the stack
      return 0;
    });
  });
  EXPECT_EQ(sig, SIGSEGV);
  EXPECT_EQ(out, "");
}
