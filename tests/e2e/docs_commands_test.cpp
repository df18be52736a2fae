// Every `clharness ...` command line in the code blocks of README.md and docs/*.md runs as written:
// each is run (10 s at most, less once a long run has begun) from a copy of the repository's
// layout, and must not end in a usage error, a missing file, or a --device that selects nothing
// when the device is present.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/scratch.hpp"

namespace fs = std::filesystem;

namespace {

using clh::test::slurp;

struct DocCommand {
  std::string where;  ///< file:line
  std::string text;
};

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

// A synopsis, not a command: placeholders such as [--device WHAT], `...` or ASSIGNMENT.
bool isSynopsis(const std::string& cmd) {
  std::istringstream in(cmd);
  for (std::string tok; in >> tok;) {
    if (tok[0] == '#') break;  // a comment follows
    if (tok[0] == '[' || tok.find("...") != std::string::npos) return true;
    if (std::regex_match(tok, std::regex("[A-Z][A-Z_]{2,}"))) return true;
  }
  return false;
}

// The command lines of the fenced code blocks of one Markdown file. A block whose fence follows a
// line `<!-- not run ... -->` is left out (the comment says why).
std::vector<DocCommand> commandsIn(const fs::path& file, const std::string& name) {
  std::vector<DocCommand> out;
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  bool inBlock = false, skip = false;
  std::string previous;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    if (t.rfind("```", 0) == 0) {
      if (!inBlock) skip = previous.rfind("<!-- not run", 0) == 0;
      inBlock = !inBlock;
      previous = t;
      continue;
    }
    if (!t.empty()) previous = t;
    if (!inBlock || skip) continue;
    std::string cmd = t;
    const size_t first = i;
    while (!cmd.empty() && cmd.back() == '\\' && i + 1 < lines.size())
      cmd = cmd.substr(0, cmd.size() - 1) + " " + trim(lines[++i]);
    if (cmd.rfind("$ ", 0) == 0) cmd = trim(cmd.substr(2));
    if (cmd.rfind("clharness ", 0) != 0) continue;
    out.push_back({name + ":" + std::to_string(first + 1), cmd});
  }
  return out;
}

std::vector<DocCommand> allCommands(const fs::path& root) {
  std::vector<fs::path> files = {root / "README.md"};
  std::vector<fs::path> docs;
  for (const auto& e : fs::directory_iterator(root / "docs"))
    if (e.path().extension() == ".md") docs.push_back(e.path());
  std::sort(docs.begin(), docs.end());
  files.insert(files.end(), docs.begin(), docs.end());
  std::vector<DocCommand> out;
  for (const auto& f : files) {
    auto some = commandsIn(f, fs::relative(f, root).string());
    out.insert(out.end(), some.begin(), some.end());
  }
  return out;
}

TEST(DocsCommands, ExtractionFindsTheReadmeExamplesAndSkipsSynopses) {
  const auto all = allCommands(CLHARNESS_SOURCE_ROOT);
  bool readme = false;
  for (const auto& c : all) readme |= c.text.rfind("clharness check specs/ --device pocl", 0) == 0;
  EXPECT_TRUE(readme) << "the README's check example is no longer found";
  EXPECT_TRUE(isSynopsis("clharness launch [SPEC|DIR...] [--device WHAT] [--shapes N=100]"));
  EXPECT_TRUE(isSynopsis("clharness grade --assignment ASSIGNMENT submissions/ --out grades"));
  EXPECT_FALSE(isSynopsis("clharness check specs/handson/vadd.yaml --device '^Portable' --seed 1"));
}

TEST(DocsCommands, EveryCommandLineRunsAsWritten) {
  const fs::path root = CLHARNESS_SOURCE_ROOT;
  std::vector<DocCommand> cmds;
  for (const auto& c : allCommands(root))
    if (!isSynopsis(c.text)) cmds.push_back(c);
  ASSERT_GE(cmds.size(), 8u);

  // A working folder that looks like the repository (its entries linked), so that relative paths
  // resolve as in a checkout and what the commands write stays here.
  const fs::path work = fs::path(::testing::TempDir()) / ("docs-cmds-" + std::to_string(getpid()));
  fs::remove_all(work);
  fs::create_directories(work / ".bin");
  for (const auto& e : fs::directory_iterator(root)) {
    const std::string n = e.path().filename().string();
    if (n == "build" || n == ".git" || n.rfind("build-", 0) == 0) continue;
    fs::create_symlink(e.path(), work / n);
  }
  fs::create_symlink(CLHARNESS_TOOL, work / ".bin" / "clharness");
  for (size_t i = 0; i < cmds.size(); ++i)
    std::ofstream(work / (".cmd" + std::to_string(i) + ".sh")) << cmds[i].text << "\n";
  // Four at a time, each stopped after 10 s (`timeout` signals the tool, which ends its children),
  // or earlier, at the event that says its options, inputs and devices were taken: the first line
  // of a long run's progress (a check of 10 units or more, a grade of 10 submissions or more, the
  // semantics checks, an audit's first run, a scan's launch estimating the time it has left). A
  // usage error, a missing input or a --device that selects nothing is said before any of them;
  // the commands that run the catalog or a class were stopped at 10 s anyway (110 of the test's
  // 155 command-seconds). A command stopped at its event counts as one stopped by the clock (124).
  std::ofstream(work / ".run.sh")
      << "timeout 10 sh \"$1\" > \"$1.out\" 2>&1 < /dev/null &\n"
         "p=$!\n"
         "while kill -0 $p 2>/dev/null; do\n"
         "  if grep -qE '^\\[1/[0-9]{2,}\\] |; [0-9]{2,} to grade$|^running the semantics checks "
         "|^running .* \\(unmodified\\) on |^scan: launch .* s left' \"$1.out\"; then\n"
         "    kill $p; wait $p; echo 124 > \"$1.rc\"; exit 0\n"
         "  fi\n"
         "  sleep 0.2\n"
         "done\n"
         "wait $p; echo $? > \"$1.rc\"\n";
  const std::string script = "cd '" + work.string() + "' && PATH='" + (work / ".bin").string() +
                             "':\"$PATH\" && ls .cmd*.sh | xargs -P 4 -I{} sh .run.sh {}";
  ASSERT_EQ(std::system(script.c_str()), 0);

  const std::regex usage(
      "Run with --help|not expected|is required|Could not convert|not a valid regular "
      "expression|No such file|does not exist|no spec files");
  const std::regex kindWord("--device '?(nvidia|amd|intel|gpu|accelerator)'?( |$)",
                            std::regex::icase);
  for (size_t i = 0; i < cmds.size(); ++i) {
    const fs::path base = work / (".cmd" + std::to_string(i) + ".sh");
    const int rc = std::atoi(slurp(base.string() + ".rc").c_str());
    const std::string out = slurp(base.string() + ".out");
    const std::string tail = out.size() > 3000 ? "..." + out.substr(out.size() - 3000) : out;
    SCOPED_TRACE(cmds[i].where + ": " + cmds[i].text + "\nexit " + std::to_string(rc) + "\n" +
                 tail);
    EXPECT_NE(rc, 2) << "a usage error";
    EXPECT_FALSE(std::regex_search(out, usage)) << "a usage error or a missing file";
    if (rc == 3) {  // only for a device kind this machine lacks, with the list of those found
      EXPECT_TRUE(std::regex_search(cmds[i].text, kindWord)) << "--device selected nothing";
      EXPECT_NE(out.find("selects none of the devices found here"), std::string::npos);
    } else {
      EXPECT_TRUE(rc == 0 || rc == 1 || rc == 124) << "ended with " << rc;
    }
  }
  std::error_code ec;
  fs::remove_all(work, ec);
}

}  // namespace
