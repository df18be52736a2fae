// The recipe "add a driver rule" of docs/architecture.md, done once: a driver check of the test's
// own, registered with kit::registerDriverCheck, runs on a real device after the built-in ones and
// comes back as a row of its own; a rule the driver breaks comes back `deviates`, with what the
// driver did and what the rule requires.
#include <gtest/gtest.h>

#include <algorithm>

#include "cl/devices.hpp"
#include "drivers/check_kit.hpp"
#include "drivers/checks.hpp"

namespace {

using namespace clh::drivers;

TEST(DriverRuleRecipe, ARegisteredCheckRunsAfterTheBuiltInOnes) {
  clh::registerIcds({});
  std::vector<clh::DeviceInfo> devices;
  for (const auto& d : clh::enumerateDevices())
    if (!d.simulator) devices.push_back(d);
  if (devices.empty()) GTEST_SKIP() << "no real OpenCL device here";

  const size_t built_in = driverChecks().size();
  // A rule every conforming driver keeps: CL_DEVICE_MAX_WORK_GROUP_SIZE is at least 1 (OpenCL 1.2,
  // clGetDeviceInfo), and one it cannot keep, to see the deviates path.
  kit::registerDriverCheck(
      {{"recipe.max_work_group_size", "CL_DEVICE_MAX_WORK_GROUP_SIZE is at least 1",
        "clGetDeviceInfo(CL_DEVICE_MAX_WORK_GROUP_SIZE) >= 1"},
       [](kit::Env& e, CheckResult& r) {
         const size_t got = e.info.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
         if (got >= 1)
           kit::conforms(r);
         else
           kit::deviates(r, std::to_string(got), ">= 1");
       }});
  kit::registerDriverCheck({{"recipe.impossible", "a rule no driver keeps", "0 == 1"},
                            [](kit::Env&, CheckResult& r) { kit::deviates(r, "1", "0"); }});
  ASSERT_EQ(driverChecks().size(), built_in + 2);

  const auto rows = runDriverChecks(devices.front());
  ASSERT_EQ(rows.size(), built_in + 2);
  EXPECT_EQ(rows[built_in].id, "recipe.max_work_group_size");
  EXPECT_EQ(rows[built_in].verdict, Verdict::conforms) << rows[built_in].detail;
  EXPECT_EQ(rows[built_in + 1].id, "recipe.impossible");
  EXPECT_EQ(rows[built_in + 1].verdict, Verdict::deviates);
  EXPECT_EQ(rows[built_in + 1].got, "1");
  EXPECT_EQ(rows[built_in + 1].required, "0");
}

}  // namespace
