// What the end-to-end grade tests share: the built tool, PoCL and Oclgrind required, a fresh
// scratch folder, and reading a result file whole.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/tool_run.hpp"

namespace clh::test::grade {

inline const std::string kRoot = CLHARNESS_SOURCE_ROOT;
inline const std::string kSubmissions = CLH_GRADE_SUBMISSIONS;

inline ToolRun tool(const std::string& args) {
  return runTool(args);
}

inline bool haveDevices() {
  static const bool have = tool("devices --device 'Portable Computing Language'").code == 0 &&
                           tool("devices --device Oclgrind").code == 0;
  return have;
}

/// An empty folder under the test's temporary directory, named `prefix` + `name`.
inline std::filesystem::path freshDir(const std::string& prefix, const std::string& name) {
  std::filesystem::path d = std::filesystem::path(::testing::TempDir()) / (prefix + name);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

inline nlohmann::json readJson(const std::filesystem::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

inline std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace clh::test::grade

#define REQUIRE_DEVICES()                                                        \
  do {                                                                           \
    if (!clh::test::grade::haveDevices())                                        \
      GTEST_SKIP() << "needs PoCL and Oclgrind; `clharness devices` lists none"; \
  } while (0)
