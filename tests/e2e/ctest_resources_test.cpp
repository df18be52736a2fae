// End-to-end tests of ctest's resource allocation: `--device ctest:TYPE` reads the variables ctest
// sets, `clharness devices --ctest-resources TYPE` writes a resource spec file, and a spec
// registered with `__ctest --pool cpu=cpus` runs under `ctest --resource-spec-file` on the PoCL
// device ctest allocated (also through CMake's POOL option), and fails with the usage error without
// the file. PoCL's rows are found through `clharness devices --device pocl`, never assumed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/scratch.hpp"
#include "support/tool_run.hpp"

namespace fs = std::filesystem;

namespace {

using clh::test::Scratch;
using clh::test::slurp;

using clh::test::runTool;
using clh::test::runToolWithEnv;

// The variables of the outer ctest, if it set any, never reach the tool but as a test gives them.
const std::string kNoCtestVariables =
    "env -u CTEST_RESOURCE_GROUP_COUNT -u CTEST_RESOURCE_GROUP_0 -u CTEST_RESOURCE_GROUP_0_CPUS";

std::string allocated(const std::string& value) {
  return kNoCtestVariables +
         " CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0=cpus CTEST_RESOURCE_GROUP_0_CPUS=" +
         value;
}

struct Row {
  int number = 0;
  std::string name;  ///< "Platform: Device"
};

// PoCL's devices with their rows, as `clharness devices` numbers them.
std::vector<Row> poclRows() {
  const auto r = runTool("devices --device pocl --json");
  std::vector<Row> out;
  if (r.code != 0) return out;
  // stderr is merged in: the JSON is the array from the first '['.
  const auto j = nlohmann::json::parse(r.out.substr(r.out.find('[')), nullptr, false);
  if (!j.is_array()) return out;
  for (const auto& d : j)
    out.push_back({d.at("number").get<int>(),
                   d.at("platform").get<std::string>() + ": " + d.at("device").get<std::string>()});
  return out;
}

// The number of rows of `clharness devices`.
int rowCount() {
  const auto r = runTool("devices --json");
  const auto j = nlohmann::json::parse(r.out.substr(r.out.find('[')), nullptr, false);
  return j.is_array() ? static_cast<int>(j.size()) : 0;
}

// Runs a shell command line, stderr merged; returns its exit code and output.
clh::test::ToolRun shell(const std::string& cmd) {
  clh::test::ToolRun r;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST(CtestResources, DeviceCtestSelectsTheAllocatedRow) {
  const auto pocl = poclRows();
  if (pocl.empty()) GTEST_SKIP() << "no PoCL here";
  const Row& row = pocl.front();
  const auto r = runToolWithEnv(allocated("id:" + std::to_string(row.number) + ",slots:1"),
                                "devices --device ctest:cpus --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out.substr(r.out.find('[')));
  ASSERT_EQ(j.size(), 1u) << r.out;
  EXPECT_EQ(j[0]["number"], row.number);
  EXPECT_EQ(j[0]["platform"].get<std::string>() + ": " + j[0]["device"].get<std::string>(),
            row.name);
}

TEST(CtestResources, AnIdThatIsNoRowIsNoDevice) {
  const int past = rowCount() + 1;
  const auto r = runToolWithEnv(allocated("id:" + std::to_string(past) + ",slots:1"),
                                "devices --device ctest:cpus");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("ctest allocated the resource with id " + std::to_string(past) +
                       ", and no device has that row"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("--ctest-resources"), std::string::npos) << r.out;
}

TEST(CtestResources, MissingOrMalformedVariablesAreUsageErrors) {
  // As `check` would be run by a test with no RESOURCE_GROUPS, or by ctest with no spec file.
  const std::string vadd = std::string(CLHARNESS_SOURCE_ROOT) + "/specs/handson/vadd.yaml";
  const auto none = runToolWithEnv(kNoCtestVariables, "check " + vadd + " --device ctest:cpus");
  EXPECT_EQ(none.code, 2) << none.out;
  EXPECT_NE(none.out.find("clharness check: --device ctest:cpus: CTEST_RESOURCE_GROUP_COUNT is "
                          "not set"),
            std::string::npos)
      << none.out;
  EXPECT_NE(none.out.find("RESOURCE_GROUPS \"cpus:1\""), std::string::npos) << none.out;
  EXPECT_NE(none.out.find("--resource-spec-file"), std::string::npos) << none.out;
  const auto bad = runToolWithEnv(allocated("slots:1"), "devices --device ctest:cpus");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("CTEST_RESOURCE_GROUP_0_CPUS='slots:1' is not of the form"),
            std::string::npos)
      << bad.out;
  EXPECT_EQ(runToolWithEnv(allocated("id:1,slots:1"), "devices --device ctest:CPUS").code, 2);
}

TEST(CtestResources, DevicesWritesAResourceSpecFileOfTheSelectedRows) {
  const auto pocl = poclRows();
  if (pocl.empty()) GTEST_SKIP() << "no PoCL here";
  Scratch s("ctest-spec");
  const auto r = shell(std::string(CLHARNESS_TOOL) +
                       " devices --device pocl --ctest-resources "
                       "cpus > " +
                       (s.dir / "cpus.json").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto spec = nlohmann::json::parse(slurp(s.dir / "cpus.json"));
  EXPECT_EQ(spec["version"], (nlohmann::json{{"major", 1}, {"minor", 0}}));
  nlohmann::json want = nlohmann::json::array();
  for (const auto& row : pocl) want.push_back({{"id", std::to_string(row.number)}, {"slots", 1}});
  EXPECT_EQ(spec["local"], (nlohmann::json::array({{{"cpus", want}}})));
  EXPECT_EQ(runTool("devices --ctest-resources Cpus").code, 2);
  EXPECT_EQ(runTool("devices --ctest-resources cpus --json").code, 2);
}

// The docs/ci.md recipe with PoCL for the GPUs: a resource spec file, the spec registered once for
// the CPU devices, and ctest running it on the device it allocated.
TEST(CtestResources, CtestRunsAPooledSpecOnTheDeviceItAllocated) {
  const auto pocl = poclRows();
  if (pocl.empty()) GTEST_SKIP() << "no PoCL here";
  Scratch s("ctest-pool");
  const std::string tool = CLHARNESS_TOOL, ctest = CLH_CTEST;
  const fs::path spec = s.dir / "cpus.json", tests = s.dir / "tests";
  fs::create_directories(tests);
  ASSERT_EQ(shell(tool + " devices --device pocl --ctest-resources cpus > " + spec.string()).code,
            0);
  const std::string vadd = std::string(CLHARNESS_SOURCE_ROOT) + "/specs/handson/vadd.yaml";
  const auto reg = shell(tool + " __ctest " + vadd + " --exe " + tool + " --pool cpu=cpus");
  ASSERT_EQ(reg.code, 0) << reg.out;
  // One test for the pool (PoCL's devices), named after the spec and the resource type.
  const std::string line = "]==] [==[" + tool + "]==] check [==[" + vadd +
                           "]==] --device [==[ctest:cpus]==] --no-driver-checks)";
  EXPECT_NE(reg.out.find("add_test([==[spec.handson_vadd.cpus" + line), std::string::npos)
      << reg.out;
  EXPECT_EQ(reg.out.find("spec.handson_vadd.portable"), std::string::npos) << "PoCL is pooled";
  EXPECT_NE(reg.out.find("RESOURCE_GROUPS \"cpus:1\""), std::string::npos) << reg.out;
  std::ofstream(tests / "CTestTestfile.cmake") << reg.out;

  const std::string run = kNoCtestVariables + " " + ctest + " --test-dir " + tests.string() +
                          " -R '^spec\\.handson_vadd\\.cpus$' -V";
  const auto with = shell(run + " --resource-spec-file " + spec.string());
  EXPECT_EQ(with.code, 0) << with.out;
  EXPECT_NE(with.out.find("100% tests passed, 0 tests failed out of 1"), std::string::npos)
      << with.out;
  // The check ran on a device of the file, PoCL's: ctest's allocation is all that `ctest:cpus`
  // can select by (without it the test fails, below).
  bool onPocl = false;
  for (const auto& row : pocl)
    onPocl |= with.out.find(" on " + row.name + ": pass") != std::string::npos;
  EXPECT_TRUE(onPocl) << with.out;
  EXPECT_EQ(with.out.find(" on Oclgrind"), std::string::npos) << with.out;

  // Without the file ctest sets no variable and runs the test anyway: it fails, saying why.
  const auto without = shell(run);
  EXPECT_NE(without.code, 0) << without.out;
  EXPECT_NE(without.out.find("0% tests passed, 1 tests failed out of 1"), std::string::npos)
      << without.out;
  EXPECT_NE(without.out.find("CTEST_RESOURCE_GROUP_COUNT is not set"), std::string::npos)
      << without.out;
  EXPECT_NE(without.out.find("--resource-spec-file"), std::string::npos) << without.out;
}

// The same through CMake: a project whose clharness_discover_spec_tests() has POOL cpu=cpus lists
// one test for PoCL's devices when ctest starts, and ctest runs it with the resource spec file.
TEST(CtestResources, CmakePoolOptionRegistersOneTestForTheKind) {
  const auto pocl = poclRows();
  if (pocl.empty()) GTEST_SKIP() << "no PoCL here";
  Scratch s("ctest-cmake-pool");
  const std::string tool = CLHARNESS_TOOL, root = CLHARNESS_SOURCE_ROOT;
  fs::create_directories(s.dir / "src");
  std::ofstream(s.dir / "src" / "CMakeLists.txt")
      << "cmake_minimum_required(VERSION 3.22)\nproject(pooled LANGUAGES NONE)\nenable_testing()\n"
      << "include(" << root << "/cmake/clharnessFunctions.cmake)\n"
      << "clharness_discover_spec_tests(EXE " << tool << " SPECS " << root
      << "/specs/handson/vadd.yaml PREFIX pooled LABELS mine POOL cpu=cpus)\n";
  const auto configure = shell(std::string(CLH_CMAKE) + " -S " + (s.dir / "src").string() + " -B " +
                               (s.dir / "build").string());
  ASSERT_EQ(configure.code, 0) << configure.out;
  const std::string spec = (s.dir / "cpus.json").string();
  ASSERT_EQ(shell(tool + " devices --device pocl --ctest-resources cpus > " + spec).code, 0);
  const std::string ctest =
      kNoCtestVariables + " " + CLH_CTEST + " --test-dir " + (s.dir / "build").string();
  const auto listed = shell(ctest + " -N -L cpu");
  EXPECT_NE(listed.out.find("pooled.handson_vadd.cpus"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("Total Tests: 1"), std::string::npos) << listed.out;
  const auto run = shell(ctest + " -L mine -R '\\.cpus$' --resource-spec-file " + spec);
  EXPECT_EQ(run.code, 0) << run.out;
  EXPECT_NE(run.out.find("100% tests passed, 0 tests failed out of 1"), std::string::npos)
      << run.out;
}

}  // namespace
