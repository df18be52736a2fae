// Replay commands are pasted into a shell and their --device value is matched as a regex: the
// quoting must survive /bin/sh and the regex must select the one name it was made from.
#include "core/shell.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <regex>
#include <string>

namespace {

// What /bin/sh makes of `printf %s WORD`.
std::string throughShell(const std::string& word) {
  std::string out;
  FILE* p = ::popen(("printf %s " + clh::shellQuote(word)).c_str(), "r");
  if (!p) return "<popen failed>";
  std::array<char, 256> buf{};
  size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  ::pclose(p);
  return out;
}

TEST(ShellQuote, SafeWordsStayAsTheyAre) {
  EXPECT_EQ(clh::shellQuote("specs/handson/vadd.yaml"), "specs/handson/vadd.yaml");
  EXPECT_EQ(clh::shellQuote("N=17,TS=4"), "N=17,TS=4");
}

TEST(ShellQuote, TheShellGivesBackTheSameText) {
  for (const std::string w : {"", "a b", "it's", "$HOME", "^Oclgrind: Oclgrind Simulator$", "x\"y",
                              "back\\slash", "semi;colon", "*"})
    EXPECT_EQ(throughShell(w), w) << "word: " << w;
}

TEST(ExactDeviceRegex, MatchesOnlyTheNameItWasMadeFrom) {
  const std::string name = "Portable Computing Language: cpu-haswell-Intel(R) Xeon(R) [2.2GHz]";
  const std::regex re(clh::exactDeviceRegex(name));
  EXPECT_TRUE(std::regex_search(name, re));
  EXPECT_FALSE(std::regex_search(name + " ", re));
  EXPECT_FALSE(
      std::regex_search("Portable Computing Language: cpu-haswell-IntelR XeonR 2.2GHz", re));
  EXPECT_FALSE(std::regex_search("x" + name, re));
}

}  // namespace
