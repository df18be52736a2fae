// Tests that run once on real drivers (suite Device) and once on Oclgrind (suite Simulator) from
// one body: KIND_TEST(Name) { ... kind ... } defines Device.Name and Simulator.Name, which the
// suite's CMake labels device and simulator (clh_add_gtest's SUITES).
#pragma once

#include <string>
#include <vector>

#include "cl/devices.hpp"

namespace clh::test {

/// Which devices a test runs on: the simulator's or the real drivers'.
struct Kind {
  bool simulator = false;
  const char* word() const { return simulator ? "simulator" : "device"; }
};

/// The devices found here (ICDs registered once).
inline const std::vector<clh::DeviceInfo>& allDevices() {
  static const std::vector<clh::DeviceInfo> all = [] {
    clh::registerIcds({});
    return clh::enumerateDevices();
  }();
  return all;
}

/// The devices of one kind.
inline std::vector<clh::DeviceInfo> devicesOf(const Kind& kind) {
  std::vector<clh::DeviceInfo> out;
  for (const auto& d : allDevices())
    if (d.simulator == kind.simulator) out.push_back(d);
  return out;
}

}  // namespace clh::test

#define KIND_TEST(name)                   \
  void name(const clh::test::Kind& kind); \
  TEST(Device, name) {                    \
    name(clh::test::Kind{false});         \
  }                                       \
  TEST(Simulator, name) {                 \
    name(clh::test::Kind{true});          \
  }                                       \
  void name(const clh::test::Kind& kind)
