// What the audit folder's tests of the built tool share: fixture paths, a scan's one JSON result,
// and the guard that skips a test (saying so) where its device is missing.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/tool_run.hpp"

namespace clh::test::audit {

inline std::string fixture(const std::string& rel) {
  return std::string(CLH_AUDIT_DIR) + "/" + rel;
}
inline std::string root(const std::string& rel) {
  return std::string(CLHARNESS_SOURCE_ROOT) + "/" + rel;
}
inline std::string temp(const std::string& name) {
  return ::testing::TempDir() + "/" + name;
}

inline nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in, nullptr, false);
}

/// The line numbers a finding names.
inline std::set<int> lineSet(const nlohmann::json& finding) {
  std::set<int> s;
  for (const auto& l : finding["lines"]) s.insert(l["line"].get<int>());
  return s;
}

/// `clharness scan ARGS --json`: the run and its one result (null when there is not exactly one).
struct ScanOut {
  ToolRun run;
  nlohmann::json result;
  /// The first finding of `kind`, or null.
  const nlohmann::json* find(const std::string& kind) const {
    if (!result.is_object()) return nullptr;
    for (const auto& f : result["findings"])
      if (f["kind"] == kind) return &f;
    return nullptr;
  }
  std::vector<std::string> kinds() const {
    std::vector<std::string> out;
    if (result.is_object())
      for (const auto& f : result["findings"]) out.push_back(f["kind"]);
    return out;
  }
  std::string first() const {
    const auto all = kinds();
    return all.empty() ? "(nothing)" : all.front();
  }
  /// How the scan filled argument `name` ("given" in the report).
  std::string given(const std::string& name) const {
    for (const auto& a : result["arguments"])
      if (a["name"] == name) return a["given"];
    return "(no argument " + name + ")";
  }
};

/// Runs the scan with its JSON report in the test directory as NAME.json.
inline ScanOut scanJson(const std::string& args, const std::string& name) {
  const std::string json = temp(name + ".json");
  std::remove(json.c_str());
  ScanOut out;
  out.run = runTool("scan " + args + " --json " + json);
  auto j = readJson(json);
  if (j.is_object() && j["results"].size() == 1) out.result = j["results"][0];
  return out;
}

}  // namespace clh::test::audit

/// Skips the test, saying so, where no device matches `device` here.
#define REQUIRE_DEVICE(device)                                                          \
  do {                                                                                  \
    if (clh::test::runTool("devices --device '" + std::string(device) + "'").code != 0) \
      GTEST_SKIP() << "no " << (device) << " device here: nothing was checked";         \
  } while (0)
#define REQUIRE_OCLGRIND() REQUIRE_DEVICE("Oclgrind")
