// Device runs of the launch family, each test twice: on real drivers (suite Device) and on Oclgrind
// (suite Simulator). Catalog specs and a reqd_work_group_size spec
// under 100 shapes each, every shape conforming or recorded in baselines/launch/<slug>.json; a
// deliberately wrong prediction input caught; the tool restarting after a shape that kills PoCL.
#include "launch/family.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>

#include "cl/session.hpp"
#include "core/reference.hpp"
#include "core/sizes.hpp"
#include "drivers/baseline.hpp"
#include "launch/known.hpp"
#include "support/kinds.hpp"

namespace fs = std::filesystem;
using namespace clh::launch;

// The reqd_work_group_size test spec's reference (specs/reqd_scale.yaml): out = 2 * in.
CLH_REFERENCE(launch_test_reqd_scale) {
  auto in = c.in<float>("in");
  auto out = c.out<float>("out");
  for (size_t i = 0; i < out.size(); ++i) out[i] = 2.0f * in[i];
}

namespace {

constexpr int kShapes = 100;
constexpr uint64_t kSeed = 1;

clh::Spec spec(const std::string& path) {
  const fs::path p =
      fs::path(path).is_absolute() ? fs::path(path) : fs::path(CLHARNESS_SOURCE_ROOT) / path;
  return clh::loadSpec(p.string(), CLHARNESS_SOURCE_ROOT);
}

// The device's known launch deviations: the launch part of its baseline, and for a family whose
// driver-check row (launch.<family>, on built-in kernels) the baseline records as deviating, any
// outcome the driver gives there (the test's own kernels, reqd_scale among them, are not in the
// catalog the launch part was recorded from).
KnownDeviations known(const clh::DeviceInfo& d) {
  if (auto b = clh::drivers::findBaseline(std::string(CLHARNESS_SOURCE_ROOT) + "/baselines", d)) {
    KnownDeviations k = clh::drivers::knownDeviations(*b, d);
    for (const auto& row : b->checks)
      if (row.id.rfind("launch.", 0) == 0 && row.verdict == clh::drivers::Verdict::deviates)
        for (const std::string& got : {row.got, std::string("completion: CL_SUCCESS (0)"),
                                       std::string("crash"), std::string("timeout")})
          for (const char* rule : {"", "none"})
            k.entries.push_back({row.id.substr(7), rule, got, "", "driver check " + row.id, ""});
    return k;
  }
  KnownDeviations none;
  none.slug = d.slug();
  none.device = d.displayName();
  return none;
}

// Runs one spec's family in this process (no crash-prone shape) on a fresh session.
LaunchFamilyResult family(const clh::DeviceInfo& d, const clh::Spec& s,
                          LaunchFamilyOptions options = {}) {
  options.zero_local = false;
  if (options.kinds.empty()) options.kinds = kernelFamilies();  // as `check` draws them
  clh::DeviceSession session(d);
  const clh::Sizes sizes = launchCaseSizes(s, d.simulator, kSeed);
  return runLaunchFamily(session, s, sizes, kShapes, kSeed, options);
}

bool listHas(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

// The acceptance in small: each spec's 100 shapes either get what the specification allows (and,
// when they ran, the reference's results) or are a deviation the device's baseline records.
KIND_TEST(CatalogSpecsConformOrAreKnownDeviations) {
  const auto devices = clh::test::devicesOf(kind);
  if (devices.empty()) GTEST_SKIP() << "no OpenCL " << kind.word() << " here";
  std::vector<std::string> missing;
  for (const auto& d : devices) {
    SCOPED_TRACE(d.displayName());
    const KnownDeviations k = known(d);
    if (!k.found) missing.push_back(d.slug());
    struct Case {
      std::string path;
      std::vector<std::string> must_draw;
    };
    const std::vector<Case> cases = {
        {"specs/handson/vadd.yaml", {"spec", "valid", "null_local", "not_dividing", "offset"}},
        {"specs/handson/mmul_block.yaml", {"spec", "local_mem_over", "local_mem_limit"}},
        {std::string(CLH_LAUNCH_TEST_DIR) + "/specs/reqd_scale.yaml",
         {"spec", "reqd_mismatch", "reqd_null_local"}},
    };
    for (const auto& c : cases) {
      const clh::Spec s = spec(c.path);
      SCOPED_TRACE(s.name);
      const LaunchFamilyResult r = family(d, s);
      ASSERT_FALSE(r.failure) << r.failure->summary;
      ASSERT_EQ(r.shapes.size(), size_t(kShapes));
      int checked = 0;
      std::set<std::string> drawn;
      for (const auto& shape : r.shapes) {
        drawn.insert(shape.shape.kind);
        checked += shape.results_checked;
        if (!k.found) continue;
        EXPECT_TRUE(k.uncovered(shape).empty()) << shape.toString();
      }
      for (const auto& kind : c.must_draw) EXPECT_TRUE(drawn.count(kind)) << kind << " never drawn";
      EXPECT_GT(checked, 5) << "too few shapes had their results checked";
    }
  }
  if (!missing.empty()) {
    std::string s;
    for (const auto& m : missing) s += " " + m;
    GTEST_SKIP() << "no baselines/launch/<slug>.json for" << s
                 << ": shapes ran but were not judged (write one with `clharness launch "
                    "--write-baselines baselines/launch`)";
  }
}

// The check has teeth: a device that claims work-groups of one work-item makes the spec's own
// launch (work-groups of 16) a predicted CL_INVALID_WORK_GROUP_SIZE, which the driver does not
// give.
KIND_TEST(AWrongPredictionInputIsCaught) {
  const auto devices = clh::test::devicesOf(kind);
  if (devices.empty()) GTEST_SKIP() << "no OpenCL " << kind.word() << " here";
  const clh::Spec s = spec("specs/handson/vadd.yaml");
  for (const auto& d : devices) {
    SCOPED_TRACE(d.displayName());
    clh::DeviceSession session(d);
    LaunchFamilyOptions options;
    options.kinds = {"spec"};
    options.adjust_limits = [](clh::launch::DeviceLimits& l) {
      l.max_work_group_size = 1;
      for (auto& m : l.max_work_item_sizes) m = 1;
    };
    const clh::Sizes sizes = {{"N", 100}, {"L", 16}, {"G", 112}};
    const LaunchFamilyResult r = runLaunchFamily(session, s, sizes, 10, kSeed, options);
    ASSERT_EQ(r.shapes.size(), 10u);
    for (const auto& c : r.shapes) {
      EXPECT_FALSE(c.conforms) << c.toString();
      EXPECT_EQ(c.got, (clh::launch::Outcome{clh::launch::Stage::completion, 0})) << c.toString();
      EXPECT_FALSE(c.prediction.accepts(c.got));
      EXPECT_TRUE(listHas(c.ruleIds(), "local.over_device_max")) << c.toString();
      // It ran, so its results were checked too: right, only the prediction input was wrong.
      EXPECT_TRUE(c.results_checked && !c.resultMismatch()) << c.toString();
    }
    // With the true limits the same shapes conform and their results are checked.
    options.adjust_limits = nullptr;
    const LaunchFamilyResult ok = runLaunchFamily(session, s, sizes, 10, kSeed, options);
    for (const auto& c : ok.shapes) {
      EXPECT_TRUE(c.conforms) << c.toString();
      EXPECT_TRUE(c.results_checked && !c.resultMismatch()) << c.toString();
    }
  }
}

// And a wrong local memory size: a device that claims none makes the tiled kernel's __local
// arguments over it; every driver here runs the kernel anyway.
KIND_TEST(AWrongLocalMemorySizeIsCaught) {
  const auto devices = clh::test::devicesOf(kind);
  if (devices.empty()) GTEST_SKIP() << "no OpenCL " << kind.word() << " here";
  const clh::Spec s = spec("specs/handson/mmul_block.yaml");
  for (const auto& d : devices) {
    SCOPED_TRACE(d.displayName());
    clh::DeviceSession session(d);
    LaunchFamilyOptions options;
    options.kinds = {"spec"};
    options.adjust_limits = [](clh::launch::DeviceLimits& l) { l.local_mem_size = 0; };
    const LaunchFamilyResult r =
        runLaunchFamily(session, s, {{"BS", 4}, {"N", 8}}, 5, kSeed, options);
    ASSERT_EQ(r.shapes.size(), 5u);
    for (const auto& c : r.shapes) {
      EXPECT_FALSE(c.conforms) << c.toString();
      EXPECT_TRUE(listHas(c.ruleIds(), "local_mem.over_device")) << c.toString();
    }
  }
}

// A result check that finds wrong results reports them: Oclgrind runs a 0 in local_work_size as
// though no work-item existed, and PoCL runs a 0 in dimension 0 as a NULL local size.
KIND_TEST(AZeroLocalSizeInDimensionZeroIsRunAndItsResultsChecked) {
  const auto devices = clh::test::devicesOf(kind);
  if (devices.empty()) GTEST_SKIP() << "no OpenCL " << kind.word() << " here";
  const clh::Spec s = spec("specs/handson/vadd.yaml");
  for (const auto& d : devices) {
    SCOPED_TRACE(d.displayName());
    clh::DeviceSession session(d);
    LaunchFamilyOptions options;
    options.kinds = {"zero_local"};  // 1D: the 0 is in dimension 0, which PoCL survives
    const LaunchFamilyResult r =
        runLaunchFamily(session, s, {{"N", 100}, {"L", 16}, {"G", 112}}, 5, kSeed, options);
    const KnownDeviations k = known(d);
    ASSERT_EQ(r.shapes.size(), 5u);
    for (const auto& c : r.shapes) {
      EXPECT_TRUE(listHas(c.ruleIds(), "local.zero"));
      EXPECT_TRUE(c.conforms) << c.toString();  // running is allowed...
      EXPECT_TRUE(c.results_checked);           // ...so its results are checked
      if (k.found) {
        EXPECT_TRUE(k.uncovered(c).empty()) << c.toString();
      }
      if (d.simulator) {
        EXPECT_TRUE(c.resultMismatch()) << "Oclgrind ran the work-items after all";
      }
    }
  }
}

// A shape whose result check would run the case an earlier shape's ran (the same build, local
// size and __local bytes) takes that run's findings: one run per case, and each shape that shares
// names the shape whose run it is.
KIND_TEST(ShapesThatRunTheSameCaseShareOneResultCheck) {
  const auto devices = clh::test::devicesOf(kind);
  if (devices.empty()) GTEST_SKIP() << "no OpenCL " << kind.word() << " here";
  const clh::Spec s = spec("specs/handson/mmul_row.yaml");
  for (const auto& d : devices) {
    SCOPED_TRACE(d.displayName());
    LaunchFamilyOptions options;
    int runs = 0;
    options.on_shape_start = [&](const ShapeCheck&, const char* phase) {
      runs += std::string(phase) == "results";
    };
    const LaunchFamilyResult r = family(d, s, options);
    int own = 0, shared = 0;
    for (const auto& c : r.shapes) {
      if (!c.results_checked) continue;
      if (c.results_of < 0) {
        ++own;
        continue;
      }
      ++shared;
      const auto first = std::find_if(r.shapes.begin(), r.shapes.end(),
                                      [&](const ShapeCheck& e) { return e.index == c.results_of; });
      ASSERT_NE(first, r.shapes.end()) << c.toString();
      EXPECT_LT(first->index, c.index);
      EXPECT_EQ(first->results_of, -1);
      EXPECT_EQ(first->shape.variant, c.shape.variant) << c.toString();
      EXPECT_EQ(first->shape.config.local, c.shape.config.local) << c.toString();
      EXPECT_EQ(first->shape.local_arg_bytes, c.shape.local_arg_bytes) << c.toString();
      EXPECT_EQ(first->result_findings.size(), c.result_findings.size()) << c.toString();
    }
    EXPECT_EQ(runs, own);
    EXPECT_GT(shared, 0) << "100 shapes of mmul_row drew no case twice";
  }
}

// The tool runs each spec x device in a child process: a shape that kills PoCL is recorded with
// how the process died, and the family goes on from the next shape to all 40.
KIND_TEST(TheToolRecordsAShapeThatKillsTheProcessAndGoesOn) {
  const auto devices = clh::test::devicesOf(kind);
  if (devices.empty()) GTEST_SKIP() << "no OpenCL " << kind.word() << " here";
  for (const auto& d : devices) {
    SCOPED_TRACE(d.displayName());
    const fs::path json = fs::temp_directory_path() / ("launch-tool-" + d.slug() + ".json");
    std::string regex = "^";
    for (char c : d.displayName()) {
      if (std::string(R"(\^$.|?*+()[]{})").find(c) != std::string::npos) regex += '\\';
      regex += c;
    }
    const std::string cmd = std::string(CLHARNESS_TOOL) + " launch " + CLHARNESS_SOURCE_ROOT +
                            "/specs/handson/mmul_elem.yaml --device '" + regex +
                            "$' --shapes 40 --kind zero_local --kind spec --kind null_local" +
                            " --json " + json.string() + " > /dev/null 2>&1";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status));
    std::ifstream in(json);
    ASSERT_TRUE(in) << "no JSON from: " << cmd;
    const auto j = nlohmann::json::parse(in);
    fs::remove(json);
    const auto& f = j.at("families").at(0);
    EXPECT_EQ(f.at("shapes").get<int>(), 40);
    EXPECT_GT(f.at("per_kind").at("zero_local").at("shapes").get<int>(), 5);
    if (!d.simulator && d.platform.find("Portable") != std::string::npos) {
      EXPECT_GT(f.at("died").get<int>(), 0) << "PoCL 3.1 dies on a 0 in local_work_size[1]";
    }
    for (const auto& failure : f.at("failures")) {
      if (failure.at("got") == "crash") {
        EXPECT_EQ(failure.at("kind"), "zero_local") << failure.dump();
        EXPECT_EQ(failure.at("example").at("shape").get<std::string>().rfind("zero_local", 0), 0u);
      }
    }
    if (known(d).found) {
      EXPECT_EQ(WEXITSTATUS(status), 0) << "a failure no baseline records: " << f.dump(1);
      EXPECT_EQ(f.at("new_failures").get<int>(), 0) << f.dump(1);
    }
  }
}
