// Issue 43's hostile inputs at the core layer: names with control characters made printable, a
// spec whose kernel file is a FIFO, a replay that leaves out a parameter, and the temporary
// folders of runs killed before they could remove them.
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "core/replay_sizes.hpp"
#include "core/run_folders.hpp"
#include "core/spec.hpp"
#include "core/text.hpp"
#include "core_test_support.hpp"

namespace fs = std::filesystem;

namespace clh {
namespace {

fs::path freshFolder(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / (name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(Printable, ControlCharactersBecomeEscapes) {
  EXPECT_EQ(printable("alice"), "alice");
  EXPECT_EQ(printable("\x1b[2J\x1b[31mred"), "\\x1b[2J\\x1b[31mred");
  EXPECT_EQ(printable("a\rb\nc\td\x7f"), "a\\x0db\\x0ac\\x09d\\x7f");
  EXPECT_EQ(printable("a\nb\tc\r", true), "a\nb\tc\\x0d");  // a log keeps its lines
  EXPECT_EQ(printable("\xc2\x9b"
                      "31m"),
            "\\u009b31m");  // C1's CSI
  EXPECT_EQ(printable("abc\xe2\x80\xae"
                      "txt.cl"),
            "abc\\u202etxt.cl");                   // right-to-left override
  EXPECT_EQ(printable("\x9b\xff"), "\\x9b\\xff");  // not UTF-8
  EXPECT_EQ(printable("Jos\xc3\xa9 \xe6\x97\xa5"), "Jos\xc3\xa9 \xe6\x97\xa5");  // letters stay
}

// It said "not found (looked in ROOT and )": the file exists, and the folder was printed empty.
TEST(HostileSpec, AKernelFileThatIsAFifoIsNamedAsOne) {
  const fs::path dir = freshFolder("clh-fifo");
  ASSERT_EQ(mkfifo((dir / "k.cl").c_str(), 0600), 0);
  std::ofstream(dir / "fifo.yaml")
      << "name: fifo\nsource: k.cl\nreference: " << test::kTestReference
      << "\nparams:\n  N: {range: [1, 8]}\nbuffers:\n"
         "  a: {type: float, count: N}\n"
         "  c: {type: float, count: N, role: out}\n"
         "kernel: k\nargs: [a, c]\nglobal: [N]\n";
  try {
    loadSpec((dir / "fifo.yaml").string(), test::sourceRoot());
    FAIL() << "a FIFO was taken as a kernel file";
  } catch (const SpecError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("is " + (dir / "k.cl").string() + ", a named pipe (FIFO), not a regular file"),
              std::string::npos)
        << m;
    EXPECT_EQ(m.find("not found"), std::string::npos) << m;
  }
  fs::remove_all(dir);
}

TEST(HostileSpec, AKernelFileNotFoundNamesEveryFolderLookedIn) {
  const fs::path dir = freshFolder("clh-absent");
  std::ofstream(dir / "absent.yaml")
      << "name: absent\nsource: nowhere.cl\nreference: " << test::kTestReference
      << "\nparams:\n  N: {range: [1, 8]}\nbuffers:\n"
         "  c: {type: float, count: N, role: out}\n"
         "kernel: k\nargs: [c]\nglobal: [N]\n";
  const fs::path was = fs::current_path();
  fs::current_path(dir);  // the spec named without a folder: its folder is the current one
  try {
    loadSpec("absent.yaml", test::sourceRoot());
    FAIL() << "no error";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("(looked in " + test::sourceRoot() + ", " + dir.string() +
                                         " and the current folder)"),
              std::string::npos)
        << e.what();
  }
  fs::current_path(was);
  fs::remove_all(dir);
}

// `check --sizes N=5` on a spec with L too ran a case the spec could not evaluate: a tool error
// and exit 0.
TEST(ReplaySizes, AParameterLeftOutIsAUsageErrorNamingIt) {
  const Spec s = loadSpec(test::specPath("sizes.yaml"), test::sourceRoot());
  std::string drawn, all;
  for (const auto& p : s.params) {
    if (p.value) continue;
    drawn += (drawn.empty() ? "" : ", ") + p.name;
    all += (all.empty() ? "" : ",") + p.name + "=1";
  }
  ASSERT_NE(drawn.find(','), std::string::npos) << "the fixture needs two drawn parameters";
  try {
    parseSizesFor(s, "");
    FAIL() << "no parameter given, and no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("leaves out " + drawn + ", parameters of"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(parseSizesFor(s, all));  // derived ones may be left out
}

// After SIGKILL a run's folders stayed, and no later run removed them.
TEST(RunFolders, OnlyFoldersOfDeadRunsAreRemoved) {
  const fs::path base = freshFolder("clh-stale");
  const pid_t dead = fork();
  if (dead == 0) _exit(0);
  ASSERT_GT(dead, 0);
  waitpid(dead, nullptr, 0);
  const pid_t live = fork();
  if (live == 0) {
    pause();
    _exit(0);
  }
  const std::string d = std::to_string(dead), l = std::to_string(live);
  for (const std::string& name :
       {"clharness-" + d, "clharness-grade-" + d, "clharness-icd-" + d + "-Ab12Cd",
        "clharness-" + l, "clharness-icd-" + l + "-Xy34Zw", "clharness-" + d + "-other",
        "clharness-icd-x" + d, "mine-" + d, "clharness-icd-" + d + "-Held00"})
    fs::create_directories(base / name / "sub");
  // A folder named by a dead process that a live run holds (a run of another PID namespace).
  holdRunFolder((base / ("clharness-icd-" + d + "-Held00")).string());
  removeStaleRunFolders(base.string());
  kill(live, SIGKILL);
  waitpid(live, nullptr, 0);
  for (const std::string& gone :
       {"clharness-" + d, "clharness-grade-" + d, "clharness-icd-" + d + "-Ab12Cd"})
    EXPECT_FALSE(fs::exists(base / gone)) << gone;
  for (const std::string& kept :
       {"clharness-" + l, "clharness-icd-" + l + "-Xy34Zw", "clharness-" + d + "-other",
        "clharness-icd-x" + d, "mine-" + d, "clharness-icd-" + d + "-Held00"})
    EXPECT_TRUE(fs::exists(base / kept)) << kept;
  EXPECT_EQ(runFolderOwner("clharness-icd-42-abcdef"), 42);
  EXPECT_EQ(runFolderOwner("clharness-icd-abcdef"), 0);  // a folder of an older version
  fs::remove_all(base);
}

}  // namespace
}  // namespace clh
