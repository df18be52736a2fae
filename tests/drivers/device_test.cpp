// Device runs of clharness::semantics, each test twice: on real drivers (suite Device) and on
// Oclgrind (suite Simulator). Launch shapes on the driver checks' probe kernels, and the whole
// semantics column of each device against baselines/semantics/<slug>.json.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "cl/devices.hpp"
#include "cl/driver_alone.hpp"
#include "drivers/baseline.hpp"
#include "drivers/checks.hpp"
#include "drivers/launch_probes.hpp"
#include "drivers/matrix.hpp"
#include "launch/shapes.hpp"
#include "support/kinds.hpp"

using namespace clh::drivers;
using namespace clh::launch;

namespace {

std::optional<DeviceColumn> baselineFor(const clh::DeviceInfo& d) {
  auto b = clh::drivers::findBaseline(CLH_SEMANTICS_BASELINES, d);
  if (!b) return std::nullopt;
  return DeviceColumn{d.slug(), d.displayName(), "", b->match.driver_version, b->checks};
}

const CheckResult* row(const DeviceColumn& col, const std::string& id) {
  for (const auto& r : col.results)
    if (r.id == id) return &r;
  return nullptr;
}

std::string skipMessage(const std::vector<std::string>& missing) {
  std::string s = "no baseline in " CLH_SEMANTICS_BASELINES " for:";
  for (const auto& m : missing) s += " " + m;
  return s + " (results were only listed; write one with `clharness semantics --write-baselines`)";
}

}  // namespace

// Every shape of the driver checks' launch probes (the program, shapes and seeds of a run's driver
// checks: the run's kernel cache already holds their compiles), at least 100 on each probe kernel:
// every outcome the rules allow, or a deviation that the device's baseline records for that family
// (listed with both codes on stdout).
KIND_TEST(LaunchShapesMatchPredictions) {
  auto devices = clh::test::devicesOf(kind);
  if (devices.empty()) GTEST_SKIP() << "no OpenCL " << kind.word() << " here";
  std::vector<std::string> missing;
  for (const auto& d : devices) {
    SCOPED_TRACE(d.displayName());
    auto baseline = baselineFor(d);
    if (!baseline) missing.push_back(d.slug());
    int deviations = 0;
    const auto probes = runLaunchProbes(d);
    EXPECT_EQ(probes.size(), 4u);
    for (const auto& probe : probes) {
      SCOPED_TRACE(probe.kernel);
      EXPECT_GE(probe.results.size(), 100u);
      for (const auto& r : probe.results) {
        EXPECT_FALSE(r.prediction.allowed.empty()) << r.toString();
        if (r.conforms) continue;
        ++deviations;
        std::cout << "[deviation] " << d.slug() << " " << probe.kernel << ": " << r.toString()
                  << "\n";
        if (!baseline) continue;
        const CheckResult* known = row(*baseline, "launch." + r.shape.kind);
        EXPECT_TRUE(known && known->verdict == Verdict::deviates)
            << "a deviation the baseline does not record: " << r.toString();
      }
    }
    std::cout << d.slug() << ": " << deviations << " deviating shapes\n";
  }
  if (!missing.empty()) GTEST_SKIP() << skipMessage(missing);
}

// A family run alone (what --isolate-launch runs in a child per family after a driver crashed)
// launches the shapes it has in the run of every family: the same count and the same verdict in
// each row, not a whole run's worth of its own shapes.
KIND_TEST(AFamilyRunAloneGetsTheShapesOfTheWholeRun) {
  auto devices = clh::test::devicesOf(kind);
  if (devices.empty()) GTEST_SKIP() << "no OpenCL " << kind.word() << " here";
  const auto& d = devices.front();
  const auto whole = runLaunchChecks(d);
  ASSERT_FALSE(whole.empty());
  for (const auto& r : whole) {
    SCOPED_TRACE(r.id);
    LaunchCheckOptions alone;
    alone.families = {r.id.substr(std::string("launch.").size())};
    const auto rows = runLaunchChecks(d, alone);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].id, r.id);
    EXPECT_EQ(toString(rows[0].verdict), toString(r.verdict));
    EXPECT_EQ(rows[0].detail, r.detail);
  }
}

// Every driver check and launch row of each device, compared with its committed baseline.
KIND_TEST(SemanticsMatchBaseline) {
  auto devices = clh::test::devicesOf(kind);
  if (devices.empty()) GTEST_SKIP() << "no OpenCL " << kind.word() << " here";
  std::vector<std::string> missing;
  for (const auto& d : devices) {
    SCOPED_TRACE(d.displayName());
    auto results = runDriverChecks(d);
    auto launch = runLaunchChecks(d);
    results.insert(results.end(), launch.begin(), launch.end());
    // Each child loads the device's driver alone, as the tool's do (cl/driver_alone.hpp).
    auto isolated = runIsolatedLaunchRows(
        {"/proc/self/exe", "--clh-launch-family={family}", "--clh-device=" + exactDeviceRegex(d)},
        300, crashProneFamilies(), clh::deviceChildEnvironment(d));
    results.insert(results.end(), isolated.begin(), isolated.end());
    // Every check of the catalogue ran to a value.
    for (const auto& info : driverChecks())
      EXPECT_TRUE(std::any_of(results.begin(), results.end(), [&](const CheckResult& r) {
        return r.id == info.id;
      })) << info.id;
    DeviceColumn col = makeColumn(d, results);
    std::cout << renderTable({col});
    auto baseline = baselineFor(d);
    if (!baseline) {
      missing.push_back(d.slug());
      continue;
    }
    for (const auto& change : compareWithBaseline(col, *baseline))
      ADD_FAILURE() << change.toString();
  }
  if (!missing.empty()) GTEST_SKIP() << skipMessage(missing);
}

// Child mode (--clh-launch-family=F --clh-device=REGEX): one crash-prone launch family on one
// device, rows as JSON on stdout; what runIsolatedLaunchRows() runs.
int main(int argc, char** argv) {
  std::string family, regex;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--clh-launch-family=", 0) == 0) family = a.substr(20);
    if (a.rfind("--clh-device=", 0) == 0) regex = a.substr(13);
  }
  if (!family.empty()) {
    clh::IcdConfig icd;  // the vendors folder the parent named, as the tool's children use it
    if (const char* folder = std::getenv(clh::kIcdFolderVariable)) {
      icd.folder = folder;
      icd.reuse = true;
    }
    clh::registerIcds(icd);
    auto devices = clh::selectDevices(clh::enumerateDevices(), regex);
    if (devices.empty()) return 3;
    LaunchCheckOptions options;
    options.families = {family};
    std::cout << launchRowsJson(runLaunchChecks(devices.front(), options)) << "\n";
    return 0;
  }
  testing::InitGoogleTest(&argc, argv);
  // Ended without exit-time destructors: PoCL 3.1, running __local arguments over its own
  // CL_DEVICE_LOCAL_MEM_SIZE in this process (the local_mem_over rows), can leave the heap
  // damaged, and a free() at exit then aborts a run whose tests passed ("corrupted double-linked
  // list", seen under load). The driver's deviation itself is what the rows report.
  const int rc = RUN_ALL_TESTS();
  std::fflush(nullptr);
  std::_Exit(rc);
}
