// Unit tests of the spec tests' CTest registration (`clharness __ctest`) on a made-up machine:
// one test per spec x device with the GPU lock, identical GPUs told apart, and `--pool KIND=TYPE`
// giving a kind one test per spec on ctest's allocated device.
#include "run/ctest_script.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

clh::DeviceInfo dev(std::string platform, std::string name, clh::DeviceKind kind) {
  clh::DeviceInfo d;
  d.platform = std::move(platform);
  d.name = std::move(name);
  d.kind = kind;
  d.simulator = kind == clh::DeviceKind::simulator;
  d.driver_version = "1.0";
  return d;
}

// PoCL, two identical H100s, an Intel GPU and Oclgrind.
std::vector<clh::DeviceInfo> machine() {
  using K = clh::DeviceKind;
  std::vector<clh::DeviceInfo> all = {
      dev("Portable Computing Language", "cpu-haswell", K::cpu),
      dev("NVIDIA CUDA", "NVIDIA H100", K::gpu),
      dev("NVIDIA CUDA", "NVIDIA H100", K::gpu),
      dev("Intel(R) OpenCL Graphics", "Intel(R) UHD Graphics 770", K::gpu),
      dev("Oclgrind", "Oclgrind Simulator", K::simulator),
  };
  clh::numberDevices(all);
  return all;
}

std::vector<clh::Spec> specs() {
  std::vector<clh::Spec> out(2);
  out[0].name = "vadd";
  out[0].file = "/s/vadd.yaml";
  out[1].name = "scan";
  out[1].file = "/s/scan.yaml";
  return out;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The set_tests_properties line of test `name`.
std::string propertiesOf(const std::string& lines, const std::string& name) {
  std::smatch m;
  const std::regex re("set_tests_properties\\(\\[==\\[" + name +
                      "\\]==\\] PROPERTIES ([^\n]*)\\)\n");
  return std::regex_search(lines, m, re) ? m[1].str() : "(no test " + name + ")";
}

TEST(CtestScript, OneTestPerSpecAndDeviceWithTheGpuLock) {
  const std::string lines = clh::ctestRegistrations(specs(), machine(), "/x/run", {});
  EXPECT_EQ(count(lines, "add_test("), 10);
  EXPECT_NE(lines.find("add_test([==[spec.vadd.portable-cpu-haswell]==] [==[/x/run]==] check "
                       "[==[/s/vadd.yaml]==] --device [==[^Portable Computing Language: "
                       "cpu-haswell$]==] --no-driver-checks)"),
            std::string::npos)
      << lines;
  EXPECT_EQ(propertiesOf(lines, "spec.vadd.portable-cpu-haswell"),
            "LABELS \"spec;cpu;device\" SKIP_RETURN_CODE 3 TIMEOUT 900");
  EXPECT_EQ(propertiesOf(lines, "spec.vadd.intel-r-intel-r-uhd-graphics-770"),
            "LABELS \"spec;gpu;device\" SKIP_RETURN_CODE 3 TIMEOUT 900 RESOURCE_LOCK gpu");
  EXPECT_EQ(propertiesOf(lines, "spec.scan.oclgrind-oclgrind-simulator"),
            "LABELS \"spec;simulator;simulator\" SKIP_RETURN_CODE 3 TIMEOUT 900");
  EXPECT_EQ(count(lines, "RESOURCE_LOCK gpu"), 6);
  EXPECT_EQ(count(lines, "RESOURCE_GROUPS"), 0);
}

TEST(CtestScript, IdenticalGpusGetATestEachOnThatDevice) {
  const std::string lines = clh::ctestRegistrations(specs(), machine(), "/x/run", {});
  // Not one name twice, each selecting both: a name and the identity of one device each.
  for (const char* k : {"1", "2"}) {
    const std::string name = std::string("spec.vadd.nvidia-nvidia-h100-") + k;
    EXPECT_NE(lines.find("add_test([==[" + name +
                         "]==] [==[/x/run]==] check [==[/s/vadd.yaml]==] "
                         "--device [==[NVIDIA CUDA: NVIDIA H100 [driver 1.0, " +
                         k + " of 2]]==] --no-driver-checks)"),
              std::string::npos)
        << lines;
    EXPECT_EQ(propertiesOf(lines, name),
              "LABELS \"spec;gpu;device\" SKIP_RETURN_CODE 3 TIMEOUT 900 RESOURCE_LOCK gpu");
  }
  EXPECT_EQ(lines.find("spec.vadd.nvidia-nvidia-h100]"), std::string::npos) << lines;
}

TEST(CtestScript, APoolGivesItsKindOneTestPerSpecOnTheAllocatedDevice) {
  const std::string lines =
      clh::ctestRegistrations(specs(), machine(), "/x/run", {{"gpu", "gpus"}});
  // Per spec: PoCL, Oclgrind, and one test for the three GPUs.
  EXPECT_EQ(count(lines, "add_test("), 6) << lines;
  for (const char* spec : {"vadd", "scan"}) {
    const std::string name = std::string("spec.") + spec + ".gpus";
    EXPECT_NE(lines.find("add_test([==[" + name + "]==] [==[/x/run]==] check [==[/s/" + spec +
                         ".yaml]==] --device [==[ctest:gpus]==] --no-driver-checks)"),
              std::string::npos)
        << lines;
    EXPECT_EQ(propertiesOf(lines, name),
              "LABELS \"spec;gpu;device\" SKIP_RETURN_CODE 3 TIMEOUT 900 RESOURCE_GROUPS "
              "\"gpus:1\"");
  }
  EXPECT_EQ(count(lines, "RESOURCE_LOCK"), 0) << lines;
  EXPECT_EQ(count(lines, "h100"), 0) << lines;
  EXPECT_NE(lines.find("spec.vadd.portable-cpu-haswell"), std::string::npos);

  // Two pools; a pool whose kind has no device here has no test.
  const std::string two = clh::ctestRegistrations(
      specs(), machine(), "/x/run", {{"cpu", "cpus"}, {"simulator", "sims"}, {"accelerator", "a"}});
  EXPECT_EQ(propertiesOf(two, "spec.scan.cpus"),
            "LABELS \"spec;cpu;device\" SKIP_RETURN_CODE 3 TIMEOUT 900 RESOURCE_GROUPS \"cpus:1\"");
  EXPECT_EQ(propertiesOf(two, "spec.scan.sims"),
            "LABELS \"spec;simulator;simulator\" SKIP_RETURN_CODE 3 TIMEOUT 900 RESOURCE_GROUPS "
            "\"sims:1\"");
  EXPECT_EQ(two.find("spec.scan.a]"), std::string::npos) << two;
  EXPECT_EQ(count(two, "add_test("), 2 * (1 + 1 + 3)) << two;
}

TEST(CtestScript, PoolsAreReadAndCheckedAsUsage) {
  const clh::CtestPool p = clh::parseCtestPool("gpu=gpus");
  EXPECT_EQ(p.kind, "gpu");
  EXPECT_EQ(p.type, "gpus");
  EXPECT_EQ(clh::parseCtestPool("simulator=_sim2").type, "_sim2");
  for (const char* bad : {"gpu", "gpus=gpus", "gpu=", "gpu=GPUs", "=gpus", "gpu=gp-us"})
    EXPECT_THROW(clh::parseCtestPool(bad), std::invalid_argument) << bad;
  EXPECT_THROW(clh::ctestRegistrations(specs(), machine(), "/x", {{"gpu", "a"}, {"gpu", "b"}}),
               std::invalid_argument);
  EXPECT_THROW(clh::ctestRegistrations(specs(), machine(), "/x", {{"gpu", "a"}, {"cpu", "a"}}),
               std::invalid_argument);
}

TEST(CtestScript, NoDeviceIsOneSkippedTest) {
  const std::string lines = clh::ctestRegistrations(specs(), {}, "/x/run", {{"gpu", "gpus"}});
  EXPECT_EQ(lines,
            "add_test([==[spec.no-device]==] [==[/x/run]==] devices)\n"
            "set_tests_properties([==[spec.no-device]==] PROPERTIES SKIP_RETURN_CODE 3 LABELS "
            "\"spec\")\n");
}

}  // namespace
