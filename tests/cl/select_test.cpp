// Unit tests of device selection (`--device`) and device identity on made-up device tables: no
// driver is loaded.
#include <gtest/gtest.h>

#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "cl/devices.hpp"

namespace {

clh::DeviceInfo dev(std::string platform, std::string name, clh::DeviceKind kind,
                    std::string driver = "1.0") {
  clh::DeviceInfo d;
  d.platform = std::move(platform);
  d.name = std::move(name);
  d.kind = kind;
  d.simulator = kind == clh::DeviceKind::simulator;
  d.driver_version = std::move(driver);
  return d;
}

// A machine with PoCL on an AMD CPU, two identical NVIDIA GPUs, an Intel GPU, Oclgrind, and an
// AMD GPU whose platform is AMD's own.
std::vector<clh::DeviceInfo> table() {
  using K = clh::DeviceKind;
  std::vector<clh::DeviceInfo> all = {
      dev("Portable Computing Language", "cpu-haswell-AMD EPYC 7B13", K::cpu, "5.0+debian"),
      dev("NVIDIA CUDA", "NVIDIA H100 80GB HBM3", K::gpu, "550.54"),
      dev("NVIDIA CUDA", "NVIDIA H100 80GB HBM3", K::gpu, "550.54"),
      dev("Intel(R) OpenCL Graphics", "Intel(R) UHD Graphics 770", K::gpu, "24.09"),
      dev("Oclgrind", "Oclgrind Simulator", K::simulator, "Oclgrind 21.10"),
      dev("AMD Accelerated Parallel Processing", "gfx1100", K::gpu, "3614.0"),
  };
  clh::numberDevices(all);
  return all;
}

std::vector<int> numbers(const std::vector<clh::DeviceInfo>& v) {
  std::vector<int> out;
  for (const auto& d : v) out.push_back(d.number);
  return out;
}

std::vector<int> pick(const std::string& what) {
  return numbers(clh::selectDevices(table(), what));
}

TEST(SelectDevices, EmptyTakesAll) {
  EXPECT_EQ(pick(""), (std::vector<int>{1, 2, 3, 4, 5, 6}));
}

TEST(SelectDevices, VendorWordsMatchThePlatformOnly) {
  EXPECT_EQ(pick("pocl"), (std::vector<int>{1}));
  EXPECT_EQ(pick("PoCL"), (std::vector<int>{1}));
  EXPECT_EQ(pick("nvidia"), (std::vector<int>{2, 3}));
  EXPECT_EQ(pick("intel"), (std::vector<int>{4}));
  EXPECT_EQ(pick("oclgrind"), (std::vector<int>{5}));
  // PoCL's device is an AMD CPU; `amd` is AMD's driver, not that.
  EXPECT_EQ(pick("amd"), (std::vector<int>{6}));
  EXPECT_EQ(pick("AMD"), (std::vector<int>{6}));
}

TEST(SelectDevices, KindWords) {
  EXPECT_EQ(pick("cpu"), (std::vector<int>{1}));
  EXPECT_EQ(pick("gpu"), (std::vector<int>{2, 3, 4, 6}));
  EXPECT_EQ(pick("GPU"), (std::vector<int>{2, 3, 4, 6}));
  EXPECT_EQ(pick("sim"), (std::vector<int>{5}));
  EXPECT_EQ(pick("simulator"), (std::vector<int>{5}));
  EXPECT_TRUE(pick("accelerator").empty());
}

TEST(SelectDevices, AWordThatMatchesNothingSelectsNothing) {
  std::vector<clh::DeviceInfo> cpuOnly = {table()[0]};
  // "amd" is a substring of the PoCL device's name, but a vendor word never falls through.
  EXPECT_TRUE(clh::selectDevices(cpuOnly, "amd").empty());
  EXPECT_TRUE(clh::selectDevices(cpuOnly, "nvidia").empty());
  EXPECT_TRUE(clh::selectDevices(cpuOnly, "gpu").empty());
}

TEST(SelectDevices, RowNumbers) {
  EXPECT_EQ(pick("2"), (std::vector<int>{2}));
  EXPECT_EQ(pick("6"), (std::vector<int>{6}));
  EXPECT_TRUE(pick("7").empty());
  EXPECT_TRUE(pick("0").empty());
  EXPECT_TRUE(pick("99999999999999999999").empty());
  // A filtered table keeps each device's own row number.
  auto gpus = clh::selectDevices(table(), "gpu");
  EXPECT_EQ(numbers(clh::selectDevices(gpus, "4")), (std::vector<int>{4}));
}

TEST(SelectDevices, CaseInsensitiveSubstring) {
  EXPECT_EQ(pick("portable computing"), (std::vector<int>{1}));
  EXPECT_EQ(pick("h100"), (std::vector<int>{2, 3}));
  EXPECT_EQ(pick("Intel(R) UHD"), (std::vector<int>{4}));  // '(' taken as written
  EXPECT_EQ(pick("CUDA: NVIDIA"), (std::vector<int>{2, 3}));
  EXPECT_EQ(pick("epyc"), (std::vector<int>{1}));
}

TEST(SelectDevices, RegularExpressions) {
  EXPECT_EQ(pick("^Portable"), (std::vector<int>{1}));
  EXPECT_EQ(pick("NVIDIA|Oclgrind"), (std::vector<int>{2, 3, 5}));
  EXPECT_EQ(pick("gfx[0-9]+$"), (std::vector<int>{6}));
  EXPECT_TRUE(pick("^nothing here$").empty());
  EXPECT_THROW(pick("(unclosed"), std::regex_error);
}

// Issue 43: 100,000 characters or 20,000 nested parentheses ended the tool by a stack overflow in
// std::regex (SIGSEGV, its ICD folder left behind): refused with a reason before any regex is made.
TEST(SelectDevices, AHostilePatternIsRefusedNotCompiled) {
  auto refusal = [](const std::string& what) {
    try {
      clh::selectDevices(table(), what);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(no refusal)");
  };
  EXPECT_NE(refusal(std::string(100000, 'x')).find("100000 characters long"), std::string::npos);
  EXPECT_NE(refusal(std::string(20000, '(')).find("characters long"), std::string::npos);
  EXPECT_NE(refusal(std::string(200, '(') + std::string(200, ')')).find("deeper than 16"),
            std::string::npos);
  EXPECT_NE(refusal("(a+)*$").find("exponential"), std::string::npos);
  EXPECT_NE(refusal("(x|y)+z").find("exponential"), std::string::npos);
  EXPECT_NE(refusal("((.*)a){3}").find("exponential"), std::string::npos);
  EXPECT_EQ(refusal("(x|y)+z").rfind("--device: ", 0), 0u);
  // Simple patterns still work, lazy and optional ones included.
  EXPECT_EQ(pick("^(Portable|Oclgrind)"), (std::vector<int>{1, 5}));
  EXPECT_EQ(pick("^Ocl.*?(Simulator)?$"), (std::vector<int>{5}));
  EXPECT_EQ(pick("[(]R[)] UHD"), (std::vector<int>{4}));
  EXPECT_NO_THROW(clh::checkDevicePattern(std::string(16, '(') + "x" + std::string(16, ')')));
}

TEST(SelectDevices, ReplayRegexSelectsTheExactName) {
  // What exactDeviceRegex writes into replay commands (core/shell.cpp).
  EXPECT_EQ(pick("^Oclgrind: Oclgrind Simulator$"), (std::vector<int>{5}));
  EXPECT_EQ(pick("^Intel\\(R\\) OpenCL Graphics: Intel\\(R\\) UHD Graphics 770$"),
            (std::vector<int>{4}));
}

TEST(DeviceIdentity, TellsIdenticalDevicesApartByTheirPlace) {
  const auto all = table();
  EXPECT_NE(all[1].identity(), all[2].identity());
  EXPECT_EQ(all[1].ordinal, 0);
  EXPECT_EQ(all[2].ordinal, 1);
  EXPECT_EQ(all[2].same_count, 2);
  for (const auto& d : all) {
    const clh::DeviceInfo* found = clh::findByIdentity(all, d.identity());
    ASSERT_NE(found, nullptr) << d.identity();
    EXPECT_EQ(found->number, d.number);
    EXPECT_EQ(numbers(clh::selectDevices(all, d.identity())), (std::vector<int>{d.number}));
  }
}

TEST(DeviceIdentity, DoesNotDependOnTheOrderPlatformsAreListedIn) {
  auto all = table();
  auto reordered = std::vector<clh::DeviceInfo>(all.rbegin(), all.rend());
  clh::numberDevices(reordered);
  for (const auto& d : all) {
    const clh::DeviceInfo* found = clh::findByIdentity(reordered, d.identity());
    ASSERT_NE(found, nullptr) << d.identity();
    EXPECT_EQ(found->displayName(), d.displayName());
  }
  // The second identical GPU is still "2 of 2": the one listed second.
  EXPECT_EQ(clh::findByIdentity(reordered, all[2].identity())->ordinal, 1);
}

TEST(DeviceIdentity, ADifferentDriverVersionIsAnotherDevice) {
  auto all = table();
  auto other = all;
  other[0].driver_version = "6.0";
  clh::numberDevices(other);
  EXPECT_EQ(clh::findByIdentity(other, all[0].identity()), nullptr);
}

TEST(DeviceListing, NumbersEveryDevice) {
  const std::string text = clh::deviceListing(table());
  EXPECT_NE(text.find("#1  Portable Computing Language: cpu-haswell-AMD EPYC 7B13 (cpu)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("#5  Oclgrind: Oclgrind Simulator (simulator)"), std::string::npos) << text;
  EXPECT_EQ(clh::deviceListing({}), "  (none)\n");
}

}  // namespace
