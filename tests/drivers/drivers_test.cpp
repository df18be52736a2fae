// Unit tests of the driver section and its baselines, on made-up devices, rows and shapes: the
// choice of a baseline (platform, type, driver version, model override; none at all), the marks
// (known, new, regression, fix, missing), the verdict of a run in regression mode, and the split
// of launch failures between the kernel and the driver.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "drivers/baseline.hpp"
#include "drivers/section.hpp"

namespace fs = std::filesystem;

using namespace clh::drivers;

namespace {

clh::DeviceInfo device(const std::string& platform, const std::string& name,
                       const std::string& driver, clh::DeviceKind kind = clh::DeviceKind::gpu) {
  clh::DeviceInfo d;
  d.platform = platform;
  d.name = name;
  d.driver_version = driver;
  d.kind = kind;
  return d;
}

clh::drivers::CheckResult row(const std::string& id, clh::drivers::Verdict v,
                              const std::string& got = "") {
  clh::drivers::CheckResult r;
  r.id = id;
  r.title = id;
  r.verdict = v;
  r.got = got;
  if (v == clh::drivers::Verdict::deviates) r.required = "CL_INVALID_VALUE (-30)";
  return r;
}

fs::path freshDir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& dir, const Baseline& b) {
  std::ofstream(dir / baselineFileName(b.match)) << toJson(b).dump(2);
}

Baseline baseline(const clh::DeviceInfo& d, bool per_model = false) {
  Baseline b;
  b.match = matchFor(d, per_model);
  b.recorded_on = d.displayName();
  return b;
}

// A launch shape that breaks a rule (or none) and got `got`.
clh::launch::ShapeCheck shape(const std::string& kind, bool breaks_rule, clh::launch::Outcome got,
                              int index = 3) {
  clh::launch::ShapeCheck c;
  c.index = index;
  c.shape.kind = kind;
  c.text = kind + " 1D global {64} local {128}";
  if (breaks_rule) {
    c.prediction.rules.push_back(
        {"local.over_kernel_max", "over", {{clh::launch::Stage::enqueue, -54}}});
    c.prediction.allowed = {{clh::launch::Stage::enqueue, -54}};
  } else {
    c.prediction.allowed = {{clh::launch::Stage::completion, 0}};
  }
  c.got = got;
  c.conforms = c.prediction.accepts(got);
  return c;
}

const clh::launch::Outcome kRan{clh::launch::Stage::completion, 0};

}  // namespace

TEST(DriverBaselines, NoneForADeviceNeverRecorded) {
  const auto dir = freshDir("none");
  const auto h100 = device("NVIDIA CUDA", "NVIDIA H100 80GB HBM3", "580.159.04");
  std::string note;
  EXPECT_FALSE(findBaseline(dir.string(), h100, &note));
  EXPECT_NE(note.find("none for platform 'NVIDIA CUDA'"), std::string::npos) << note;
  EXPECT_FALSE(findBaseline((dir / "absent").string(), h100));
  // Another platform's, or another device type's, does not apply either.
  write(dir, baseline(device("Portable Computing Language", "cpu-x", "5.0", clh::DeviceKind::cpu)));
  write(dir, baseline(device("NVIDIA CUDA", "Some NVIDIA CPU", "580", clh::DeviceKind::cpu)));
  EXPECT_FALSE(findBaseline(dir.string(), h100));
}

TEST(DriverBaselines, OneModelsBaselineServesAnotherOfTheSameDriver) {
  const auto dir = freshDir("driver-wide");
  const auto h200 = device("NVIDIA CUDA", "NVIDIA H200", "580.159.04");
  const auto h100 = device("NVIDIA CUDA", "NVIDIA H100 80GB HBM3", "580.159.04");
  write(dir, baseline(h200));
  std::string note;
  auto b = findBaseline(dir.string(), h100, &note);
  ASSERT_TRUE(b);
  EXPECT_EQ(fs::path(b->file).filename(), "nvidia-gpu.json");
  EXPECT_NE(note.find("recorded with driver 580.159.04 on NVIDIA CUDA: NVIDIA H200"),
            std::string::npos)
      << note;
  // Another driver version still gets it, and the note says so.
  b = findBaseline(dir.string(), device("NVIDIA CUDA", "NVIDIA H100", "590.10"), &note);
  ASSERT_TRUE(b);
  EXPECT_NE(note.find("this device runs driver 590.10"), std::string::npos) << note;
}

TEST(DriverBaselines, ExactDriverVersionThenModelOverrideWin) {
  const auto dir = freshDir("choice");
  const auto old_driver = device("NVIDIA CUDA", "NVIDIA H200", "570.1");
  const auto new_driver = device("NVIDIA CUDA", "NVIDIA H200", "580.2");
  Baseline a = baseline(old_driver);
  a.checks = {row("read.blocking", clh::drivers::Verdict::conforms)};
  std::ofstream(dir / "nvidia-gpu-570.json") << toJson(a).dump();
  Baseline b = baseline(new_driver);
  b.checks = {row("read.blocking", clh::drivers::Verdict::deviates, "x")};
  std::ofstream(dir / "nvidia-gpu-580.json") << toJson(b).dump();
  EXPECT_EQ(fs::path(findBaseline(dir.string(), new_driver)->file).filename(),
            "nvidia-gpu-580.json");
  EXPECT_EQ(fs::path(findBaseline(dir.string(), old_driver)->file).filename(),
            "nvidia-gpu-570.json");
  // A model override applies to its model only.
  const auto h100 = device("NVIDIA CUDA", "NVIDIA H100", "580.2");
  write(dir, baseline(h100, true));
  EXPECT_EQ(fs::path(findBaseline(dir.string(), h100)->file).filename(),
            "nvidia-gpu-nvidia-h100.json");
  EXPECT_EQ(fs::path(findBaseline(dir.string(), new_driver)->file).filename(),
            "nvidia-gpu-580.json");
}

TEST(DriverBaselines, ABrokenFileIsNamed) {
  const auto dir = freshDir("broken");
  std::ofstream(dir / "x.json") << "{ not json";
  try {
    findBaseline(dir.string(), device("P", "D", "1"));
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("x.json"), std::string::npos) << e.what();
  }
}

TEST(DriverSection, WithoutABaselineEveryFindingIsNew) {
  const auto d = device("P", "D", "1");
  SectionInput in;
  in.device = &d;
  in.rows = {row("a", clh::drivers::Verdict::conforms),
             row("b", clh::drivers::Verdict::deviates, "CL_SUCCESS (0)"),
             row("c", clh::drivers::Verdict::deviates, "the process killed by SIGSEGV"),
             row("d", clh::drivers::Verdict::skipped)};
  const clh::DriverReport r = buildDriverReport(in, nullptr, "none");
  EXPECT_EQ(r.conforming, 1);
  ASSERT_EQ(r.findings.size(), 3u);
  EXPECT_EQ(r.findings[0].verdict, clh::DriverVerdict::deviates);
  EXPECT_EQ(r.findings[1].verdict, clh::DriverVerdict::crashed);
  EXPECT_EQ(r.findings[2].verdict, clh::DriverVerdict::skipped);
  EXPECT_EQ(r.findings[0].mark, clh::BaselineMark::fresh);
  EXPECT_EQ(r.findings[1].mark, clh::BaselineMark::fresh);
  EXPECT_EQ(r.findings[2].mark, clh::BaselineMark::none);  // could not run: nothing to regress
  clh::Report report;
  report.drivers.push_back(r);
  EXPECT_TRUE(clh::reportPasses(report));  // no kernel failed: deviations fail nothing
  report.regression_mode = true;
  EXPECT_FALSE(clh::reportPasses(report));  // regression mode with nothing recorded: all new
  // A kernel failure fails any run.
  report.regression_mode = false;
  clh::UnitResult u;
  u.status = clh::Status::fail;
  report.units.push_back(u);
  EXPECT_FALSE(clh::reportPasses(report));
}

TEST(DriverSection, MarksAgainstTheBaselineAndFailsOnlyInRegressionMode) {
  const auto d = device("P", "D", "1");
  Baseline b = baseline(d);
  b.checks = {row("same", clh::drivers::Verdict::deviates, "CL_SUCCESS (0)"),
              row("regressed", clh::drivers::Verdict::conforms),
              row("fixed", clh::drivers::Verdict::deviates, "x"),
              row("gone", clh::drivers::Verdict::conforms)};
  SectionInput in;
  in.device = &d;
  in.rows = {row("same", clh::drivers::Verdict::deviates, "CL_SUCCESS (0)"),
             row("regressed", clh::drivers::Verdict::deviates, "CL_SUCCESS (0)"),
             row("fixed", clh::drivers::Verdict::conforms),
             row("added", clh::drivers::Verdict::deviates, "CL_SUCCESS (0)")};
  const clh::DriverReport r = buildDriverReport(in, &b, "b.json");
  std::map<std::string, clh::BaselineMark> marks;
  for (const auto& f : r.findings) marks[f.check] = f.mark;
  EXPECT_EQ(marks.at("same"), clh::BaselineMark::known);
  EXPECT_EQ(marks.at("regressed"), clh::BaselineMark::regression);
  EXPECT_EQ(marks.at("fixed"), clh::BaselineMark::fix);
  EXPECT_EQ(marks.at("added"), clh::BaselineMark::fresh);
  EXPECT_EQ(marks.at("gone"), clh::BaselineMark::missing);
  clh::Report report;
  report.drivers.push_back(r);
  EXPECT_TRUE(clh::reportPasses(report));
  report.regression_mode = true;
  EXPECT_FALSE(clh::reportPasses(report));
  // Flaky, fixes and missing checks alone do not fail a regression run.
  for (auto& f : report.drivers[0].findings)
    if (clh::failsRegression(f.mark)) f.mark = clh::BaselineMark::flaky;
  EXPECT_TRUE(clh::reportPasses(report));
}

TEST(DriverSection, LaunchFailuresThatAreTheDriversAndNotTheKernels) {
  using clh::launch::Stage;
  // A launch the specification forbids: whatever the driver did is its own answer.
  EXPECT_TRUE(chargedToDriver(shape("over_kernel_max", true, kRan)));
  auto died = shape("over_kernel_max", true, {Stage::enqueue, -54});
  died.died = "SIGSEGV";
  died.conforms = false;
  EXPECT_TRUE(chargedToDriver(died));
  // A launch that must run, refused at the enqueue with an invalid-argument code: the driver.
  EXPECT_TRUE(chargedToDriver(shape("valid", false, {Stage::enqueue, -54})));
  // ... but out of resources, an error at completion, a death or wrong results: the kernel.
  EXPECT_FALSE(chargedToDriver(shape("valid", false, {Stage::enqueue, -5})));
  EXPECT_FALSE(chargedToDriver(shape("valid", false, {Stage::completion, -9999})));
  auto crashed = shape("valid", false, kRan);
  crashed.died = "SIGSEGV";
  crashed.conforms = false;
  EXPECT_FALSE(chargedToDriver(crashed));
  auto wrong = shape("valid", false, kRan);
  clh::Finding f;
  f.kind = clh::FindingKind::wrong_result;
  wrong.result_findings.push_back(f);
  EXPECT_FALSE(chargedToDriver(wrong));
}

TEST(DriverSection, LaunchFailuresGroupAcrossSpecsAndMatchTheBaseline) {
  const auto d = device("P", "D", "1");
  clh::launch::LaunchFamilyResult one, two;
  one.spec = "a";
  two.spec = "b";
  one.shapes = {shape("over_kernel_max", true, kRan, 1), shape("valid", false, kRan, 2)};
  two.shapes = {shape("over_kernel_max", true, kRan, 7)};
  SectionInput in;
  in.device = &d;
  in.families = {&one, &two};
  in.replay = [](const clh::launch::LaunchFamilyResult& r, int s) {
    return "replay " + r.spec + " " + std::to_string(s);
  };
  clh::DriverReport r = buildDriverReport(in, nullptr, "");
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].mark, clh::BaselineMark::fresh);
  EXPECT_EQ(r.findings[0].check,
            "shape.over_kernel_max local.over_kernel_max -> completion: CL_SUCCESS (0)");
  EXPECT_NE(r.findings[0].detail.find("2 shape(s) in 2 spec(s)"), std::string::npos);
  EXPECT_EQ(r.findings[0].replay, "replay a 1");
  // Recorded, then compared: known; a baseline entry this run did not see is missing.
  Baseline b = recordBaseline(in, nullptr, false);
  ASSERT_EQ(b.launch.size(), 1u);
  b.launch.push_back({"over_kernel_max", "local.over_kernel_max", "crash", "", "r", ""});
  b = baselineFromJson(toJson(b));
  r = buildDriverReport(in, &b, "");
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].mark, clh::BaselineMark::known);
  EXPECT_EQ(r.findings[1].mark, clh::BaselineMark::missing);
  // Without the entry it is new.
  b.launch.erase(b.launch.begin());
  r = buildDriverReport(in, &b, "");
  EXPECT_EQ(r.findings[0].mark, clh::BaselineMark::fresh);
}
