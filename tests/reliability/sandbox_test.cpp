// The grading sandbox against a planted escape (issue 43, item 3): a program run as a grading
// process's code would be (grade/sandbox.hpp's environment and sandbox, proc's runChild) tries to
// read the reference solution, write beside its folder, connect to this test's loopback listener,
// run /bin/sh, signal and ptrace its parent. Every attempt fails in the sandbox; every one works
// with the sandbox off, so that the first test cannot pass for want of a working probe.
#include "grade/sandbox.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>

#include "proc/child.hpp"
#include "proc/sandbox.hpp"

namespace fs = std::filesystem;

extern char** environ;

namespace {

std::atomic<int> g_signals{0};
extern "C" void countSignal(int) {
  ++g_signals;
}

// A TCP listener on 127.0.0.1, on a port the system picks.
struct Listener {
  int fd = -1;
  int port = 0;
  Listener() {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::listen(fd, 4) != 0 || ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      return;
    port = ntohs(a.sin_port);
  }
  ~Listener() { ::close(fd); }
  bool accepted() const {
    const int c = ::accept4(fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (c >= 0) ::close(c);
    return c >= 0;
  }
};

struct Escape {
  clh::ChildOutcome child;
  std::map<std::string, std::string> said;  // attempt -> "ok", "refused: ...", "sent"
  bool wrote = false, connected = false;
  int signals = 0;
};

// The probe as a grading process runs: its environment, its scratch folder, the batch's sandbox
// (or none). Beside the scratch folder: the "reference solution" and the folder it writes into.
// With `stand_in`, the sandbox shows the submission at the reference solution's path, as a grading
// process that never runs the reference solution gets it.
Escape plantEscape(bool sandboxed, bool stand_in = false) {
  const fs::path root =
      fs::path(::testing::TempDir()) / (sandboxed ? "clh-escape-on" : "clh-escape-off");
  fs::remove_all(root);
  const fs::path scratch = root / "work" / "alice.cl.pocl";
  fs::create_directories(scratch);
  fs::create_directories(root / "reference");
  std::ofstream(root / "reference" / "vadd.cl") << "__kernel void vadd() {} // the answer\n";
  const fs::path outside = root / "work" / "grades.csv";
  Listener listener;
  EXPECT_GT(listener.port, 0);
  struct sigaction sa {};
  sa.sa_handler = countSignal;
  ::sigaction(SIGUSR1, &sa, nullptr);
  g_signals = 0;

  clh::ChildOptions o;
  o.timeout_s = 60;
  o.capture_stdout = true;
  o.cwd = scratch.string();
  o.env = clh::grade::childEnvironment(environ, scratch.string());
  if (sandboxed) o.sandbox = clh::grade::gradingSandbox(scratch.string(), {}, *o.env);
  if (sandboxed && stand_in) {
    const fs::path submission = root / "submissions" / "alice.cl";
    fs::create_directories(submission.parent_path());
    std::ofstream(submission) << "__kernel void vadd() {} // alice's own\n";
    o.sandbox->shown_as.emplace_back(submission.string(),
                                     (root / "reference" / "vadd.cl").string());
  }
  Escape e;
  e.child =
      clh::runChild({CLH_ESCAPE_PROBE, (root / "reference" / "vadd.cl").string(), outside.string(),
                     std::to_string(listener.port), std::to_string(::getpid())},
                    o);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // a signal on its way
  e.signals = g_signals;
  e.wrote = fs::exists(outside);
  e.connected = listener.accepted();
  std::istringstream lines(e.child.out);
  for (std::string line; std::getline(lines, line);) {
    const size_t sp = line.find(' ');
    if (sp != std::string::npos) e.said[line.substr(0, sp)] = line.substr(sp + 1);
  }
  return e;
}

}  // namespace

TEST(Sandbox, PlantedEscapeFailsInTheSandbox) {
  if (const std::string why = clh::sandboxUnavailable(); !why.empty())
    GTEST_SKIP() << "this machine refuses the sandbox's namespaces: " << why;
  const Escape e = plantEscape(true);
  ASSERT_TRUE(e.child.started) << e.child.error;
  EXPECT_EQ(e.child.exit_code, 0) << e.child.out;
  for (const char* attempt : {"read", "write", "connect", "exec", "ptrace"}) {
    ASSERT_TRUE(e.said.count(attempt)) << attempt << " not tried:\n" << e.child.out;
    EXPECT_EQ(e.said.at(attempt).rfind("refused: ", 0), 0u) << attempt << " " << e.said.at(attempt);
  }
  EXPECT_FALSE(e.wrote);
  EXPECT_FALSE(e.connected);
  EXPECT_EQ(e.signals, 0);
  // What refused each: the reference is not there, the folder above is read-only, no socket but
  // AF_UNIX, exec of what PoCL does not run, no ptrace.
  EXPECT_EQ(e.said.at("read"), "refused: No such file or directory");
  EXPECT_EQ(e.said.at("write"), "refused: Read-only file system");
  EXPECT_EQ(e.said.at("connect"), "refused: Operation not permitted");
  EXPECT_EQ(e.said.at("ptrace"), "refused: Operation not permitted");
  EXPECT_EQ(e.said.at("exec"), "refused: Permission denied");
}

TEST(Sandbox, PlantedEscapeSucceedsWithTheSandboxOff) {
  const Escape e = plantEscape(false);
  ASSERT_TRUE(e.child.started) << e.child.error;
  EXPECT_EQ(e.child.exit_code, 0) << e.child.out;
  for (const char* attempt : {"read", "write", "connect", "exec", "ptrace"}) {
    ASSERT_TRUE(e.said.count(attempt)) << attempt << " not tried:\n" << e.child.out;
    EXPECT_EQ(e.said.at(attempt), "ok") << attempt;
  }
  EXPECT_TRUE(e.wrote);
  EXPECT_TRUE(e.connected);
  EXPECT_GE(e.signals, 1);
}

TEST(Sandbox, ACrashAndAnExitCodeComeThroughAsTheProgramsOwn) {
  if (const std::string why = clh::sandboxUnavailable(); !why.empty())
    GTEST_SKIP() << "this machine refuses the sandbox's namespaces: " << why;
  const fs::path scratch = fs::path(::testing::TempDir()) / "clh-sandbox-ends";
  fs::create_directories(scratch);
  clh::ChildOptions o;
  o.timeout_s = 60;
  o.cwd = scratch.string();
  o.sandbox = clh::grade::gradingSandbox(scratch.string(), {}, {});
  const auto code = clh::runChild({CLH_ESCAPE_PROBE, "exit", "3"}, o);
  EXPECT_EQ(code.exit_code, 3) << code.error;
  const auto killed = clh::runChild({CLH_ESCAPE_PROBE, "abort"}, o);
  EXPECT_EQ(killed.signal, SIGABRT) << killed.error;
  o.cpu_limit_s = 1;
  const auto spun = clh::runChild({CLH_ESCAPE_PROBE, "spin"}, o);
  EXPECT_TRUE(spun.timed_out && spun.cpu_limited) << spun.signal << " " << spun.exit_code;
}

// A grading process that never runs the reference solution finds its own submission at the
// reference's path (the spec it loads names that path), never the reference's text.
TEST(Sandbox, PlantedEscapeFindsOnlyItsOwnTextAtTheReferencesPath) {
  if (const std::string why = clh::sandboxUnavailable(); !why.empty())
    GTEST_SKIP() << "this machine refuses the sandbox's namespaces: " << why;
  const Escape e = plantEscape(true, true);
  ASSERT_TRUE(e.child.started) << e.child.error;
  ASSERT_TRUE(e.said.count("read")) << e.child.out;
  EXPECT_EQ(e.said.at("read"), "stand-in") << e.child.out;
}
