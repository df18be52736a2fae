// What the reliability tests of the tool on PoCL share: the fixture specs, the PoCL guard (a test
// skips, saying so, where PoCL is missing) and a fresh scratch folder.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/tool_run.hpp"

namespace clh::test::reliability {

inline const std::string kSpecs = std::string(CLH_RELIABILITY_DIR) + "/specs";
inline const std::string kPocl = "Portable Computing Language";

inline bool havePocl() {
  static const bool have = runTool("devices --device '" + kPocl + "'").code == 0;
  return have;
}

/// An empty folder TempDir()/PREFIX-NAME (emptied first).
inline std::string scratch(const std::string& prefix, const std::string& name) {
  const std::filesystem::path d = std::filesystem::path(::testing::TempDir()) / (prefix + name);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d.string();
}

}  // namespace clh::test::reliability

#define REQUIRE_POCL()                                                              \
  do {                                                                              \
    if (!clh::test::reliability::havePocl()) GTEST_SKIP() << "no PoCL device here"; \
  } while (0)
