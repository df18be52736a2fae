// The unit processes' driver defaults reach the units (launch shapes, and cases unless each
// program of theirs meets one local size) and never the driver checks: each process of a check is
// started as a stand-in program that writes down the environment it was given.
#include "cl/unit_environment.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <deque>
#include <fstream>
#include <optional>
#include <string>

#include "launch/spec_shapes.hpp"
#include "run/driver_section.hpp"
#include "run/units.hpp"
#include "support/scratch.hpp"

namespace {

using namespace clh;

constexpr const char* kSetting = "POCL_WORK_GROUP_SPECIALIZATION";

// The lines of a file written by `env`, looked up by NAME= (nullopt: the variable was not there).
std::optional<std::string> valueIn(const std::filesystem::path& file, const std::string& name) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(name + "=", 0) == 0) return line.substr(name.size() + 1);
  return std::nullopt;
}

// A stand-in for the tool: `PROGRAM __child KIND EVENTS JOB` writes its environment to KIND.env.
struct Processes {
  test::Scratch scratch{"unit-environment"};
  ToolConfig config;
  Spec spec;
  DeviceInfo dev;
  Processes() {
    const auto exe = scratch.dir / "fake-clharness";
    std::ofstream(exe) << "#!/bin/sh\nenv > '" << scratch.dir.string() << "'/\"$2\".env\n";
    ::chmod(exe.c_str(), 0755);
    config.exe = exe.string();
    config.repo_root = CLHARNESS_SOURCE_ROOT;
    spec.name = "environment_probe";
    spec.file = (scratch.dir / "environment_probe.yaml").string();
    dev.platform = "Stand-in platform";
    dev.name = "stand-in device";
  }
  std::optional<std::string> unitValue() {
    runUnitIsolated(config, spec, dev, CheckOptions{}, scratch.dir);
    return valueIn(scratch.dir / "__unit.env", kSetting);
  }
  // A launch family of `check` draws the kernel families; `clharness launch` may draw any kind.
  std::optional<std::string> launchValue(
      const std::vector<std::string>& kinds = launch::kernelFamilies()) {
    LaunchRunOptions o;
    o.kinds = kinds;
    runLaunchIsolated(config, o, spec, dev, scratch.dir);
    return valueIn(scratch.dir / "__launch.env", kSetting);
  }
  std::optional<std::string> driverChecksValue() {
    runDeviceDriverChecks(config, CheckOptions{}, dev, scratch.dir);
    return valueIn(scratch.dir / "__semantics.env", kSetting);
  }
};

// The variable as this test process has it, put back when the test ends.
struct SavedVariable {
  std::optional<std::string> value;
  SavedVariable() {
    if (const char* v = std::getenv(kSetting)) value = v;
  }
  ~SavedVariable() {
    if (value)
      ::setenv(kSetting, value->c_str(), 1);
    else
      ::unsetenv(kSetting);
  }
};

TEST(UnitEnvironment, DefaultsAddOnlyWhatTheParentDoesNotSet) {
  const char* parent[] = {"PATH=/bin", "POCL_DEBUG=1", nullptr};
  const auto env =
      environmentWithDefaults(parent, {"POCL_DEBUG=0", "POCL_WORK_GROUP_SPECIALIZATION=0"});
  EXPECT_EQ(env, (std::vector<std::string>{"PATH=/bin", "POCL_DEBUG=1",
                                           "POCL_WORK_GROUP_SPECIALIZATION=0"}));
  // A name that only begins like a default's is another variable.
  const char* similar[] = {"POCL_WORK_GROUP_SPECIALIZATION_X=1", nullptr};
  EXPECT_EQ(environmentWithDefaults(similar, {"POCL_WORK_GROUP_SPECIALIZATION=0"}).size(), 2u);
}

TEST(UnitEnvironment, TheUnitsGetTheSettingAndTheDriverChecksNever) {
  SavedVariable saved;
  ::unsetenv(kSetting);
  Processes p;
  EXPECT_EQ(p.unitValue(), "0");
  EXPECT_EQ(p.launchValue(), "0");
  // The driver checks' process: PoCL hangs on a local size of 0 with the setting. So do the
  // launch families that may draw such a shape (`clharness launch`, every kind or --kind
  // zero_local).
  EXPECT_EQ(p.driverChecksValue(), std::nullopt);
  EXPECT_EQ(p.launchValue({}), std::nullopt);
  EXPECT_EQ(p.launchValue({"spec", "zero_local"}), std::nullopt);
  EXPECT_EQ(unitDefaultsApplied(), (std::vector<std::string>{"POCL_WORK_GROUP_SPECIALIZATION=0"}));
}

TEST(UnitEnvironment, CasesThatBuildAProgramEachKeepPoclsDefault) {
  SavedVariable saved;
  ::unsetenv(kSetting);
  Processes p;
  p.spec.build_options = "-DN={N} -DTS=4";  // one program per case, launched with one local size
  EXPECT_FALSE(casesWithoutSpecialisation(p.spec));
  EXPECT_EQ(p.unitValue(), std::nullopt);
  EXPECT_EQ(p.launchValue(), "0");  // one program, many local sizes
  p.spec.build_options = "-DTS=4";
  EXPECT_TRUE(casesWithoutSpecialisation(p.spec));
}

// A program whose cases reach several local sizes would be compiled once per local size: the
// programs of -DNMAX={NMAX} (NMAX the power of two above N) launched at a global size of N with the
// local size left to the driver get the setting; launched at NMAX, each meets one and keeps PoCL's
// default.
TEST(UnitEnvironment, CasesWhoseProgramsMeetSeveralLocalSizesGetTheSetting) {
  SavedVariable saved;
  ::unsetenv(kSetting);
  Processes p;
  ParamSpec n, nmax;
  n.name = "N";
  n.range = std::make_pair(Expr{"1", 0}, Expr{"128", 0});
  nmax.name = "NMAX";
  nmax.value = Expr{"2^ceil(log2(N))", 0};
  p.spec.params = {n, nmax};
  p.spec.build_options = "-DNMAX={NMAX}";
  p.spec.launches = {LaunchSpec{}};
  p.spec.launches[0].global = {Expr{"N", 0}};
  EXPECT_EQ(p.unitValue(), "0");
  p.spec.launches[0].global = {Expr{"NMAX", 0}};
  EXPECT_EQ(p.unitValue(), std::nullopt);
}

TEST(UnitEnvironment, AValueTheUserSetWins) {
  SavedVariable saved;
  ::setenv(kSetting, "1", 1);
  Processes p;
  EXPECT_EQ(p.unitValue(), "1");
  EXPECT_EQ(p.launchValue(), "1");
  EXPECT_EQ(p.driverChecksValue(), "1");  // passed on as it is, as before
  EXPECT_TRUE(unitDefaultsApplied().empty());
}

}  // namespace
