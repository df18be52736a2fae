// Unit tests of `--device ctest:TYPE`'s reading of ctest's resource variables (good, missing,
// malformed) and of the resource spec file `clharness devices --ctest-resources` prints.
#include "cl/ctest_resources.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace {

using Env = clh::EnvironmentVariables;

// What ctest 3.25 sets for a test with RESOURCE_GROUPS "gpus:1" that got the resource "2".
Env allocated(const std::string& value = "id:2,slots:1") {
  return {{"CTEST_RESOURCE_GROUP_COUNT", "1"},
          {"CTEST_RESOURCE_GROUP_0", "gpus"},
          {"CTEST_RESOURCE_GROUP_0_GPUS", value}};
}

// The message of the usage error `env` gives for `type`; "" when it gives none.
std::string usageError(const std::string& type, const Env& env) {
  try {
    clh::ctestAllocatedRow(type, env);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(CtestResources, ReadsTheAllocatedId) {
  EXPECT_EQ(clh::ctestAllocatedRow("gpus", allocated()), 2);
  EXPECT_EQ(clh::ctestAllocatedRow("gpus", allocated("id:17,slots:1")), 17);
  EXPECT_EQ(clh::ctestAllocatedRow("gpus", allocated("slots:1,id:3")), 3);
  // Another resource type in the same group, and a second group, change nothing.
  Env env = allocated("id:4,slots:1");
  env["CTEST_RESOURCE_GROUP_COUNT"] = "2";
  env["CTEST_RESOURCE_GROUP_0"] = "mem,gpus";
  env["CTEST_RESOURCE_GROUP_0_MEM"] = "id:a,slots:4";
  env["CTEST_RESOURCE_GROUP_1"] = "cpus";
  EXPECT_EQ(clh::ctestAllocatedRow("gpus", env), 4);
  // The type's variable is its name in upper case.
  Env under = {{"CTEST_RESOURCE_GROUP_COUNT", "1"},
               {"CTEST_RESOURCE_GROUP_0", "my_gpus2"},
               {"CTEST_RESOURCE_GROUP_0_MY_GPUS2", "id:1,slots:1"}};
  EXPECT_EQ(clh::ctestAllocatedRow("my_gpus2", under), 1);
}

TEST(CtestResources, MissingVariablesSayWhatCtestMustBeGiven) {
  // No variable at all: ctest ran without --resource-spec-file, or the test has no
  // RESOURCE_GROUPS.
  const std::string none = usageError("gpus", {});
  EXPECT_NE(none.find("--device ctest:gpus"), std::string::npos) << none;
  EXPECT_NE(none.find("CTEST_RESOURCE_GROUP_COUNT is not set"), std::string::npos) << none;
  EXPECT_NE(none.find("RESOURCE_GROUPS \"gpus:1\""), std::string::npos) << none;
  EXPECT_NE(none.find("--resource-spec-file"), std::string::npos) << none;
  EXPECT_NE(none.find("--ctest-resources gpus"), std::string::npos) << none;
  for (const char* name : {"CTEST_RESOURCE_GROUP_0", "CTEST_RESOURCE_GROUP_0_GPUS"}) {
    Env env = allocated();
    env.erase(name);
    const std::string why = usageError("gpus", env);
    EXPECT_NE(why.find(std::string(name) + " is not set"), std::string::npos) << why;
    EXPECT_NE(why.find("--resource-spec-file"), std::string::npos) << why;
    env[name] = "";  // set but empty: the same
    EXPECT_NE(usageError("gpus", env).find(std::string(name) + " is not set"), std::string::npos);
  }
  // The test was given resources of another type.
  Env cpus = {{"CTEST_RESOURCE_GROUP_COUNT", "1"},
              {"CTEST_RESOURCE_GROUP_0", "cpus"},
              {"CTEST_RESOURCE_GROUP_0_CPUS", "id:1,slots:1"}};
  const std::string other = usageError("gpus", cpus);
  EXPECT_NE(other.find("CTEST_RESOURCE_GROUP_0='cpus' names no resource of type gpus"),
            std::string::npos)
      << other;
  EXPECT_NE(other.find("RESOURCE_GROUPS \"gpus:1\""), std::string::npos) << other;
}

TEST(CtestResources, MalformedVariablesAreUsageErrors) {
  for (const char* count : {"0", "x", "-1", "1x", "99999999"}) {
    Env env = allocated();
    env["CTEST_RESOURCE_GROUP_COUNT"] = count;
    EXPECT_NE(usageError("gpus", env).find("is not a number of resource groups"), std::string::npos)
        << count;
  }
  for (const char* value : {"2", "id:2", "slots:1", "id:,slots:1", "id:2,slots:", "id:2,slots:x",
                            "id:2,slots:1,extra:3", "id:2,id:3,slots:1", "id=2,slots=1"}) {
    const std::string why = usageError("gpus", allocated(value));
    EXPECT_NE(why.find("is not of the form id:ID,slots:N"), std::string::npos)
        << value << ": " << why;
  }
  // Two resources in one group: not one device.
  EXPECT_NE(usageError("gpus", allocated("id:1,slots:1;id:2,slots:1")).find("more than one"),
            std::string::npos);
  // An id that is no row number: a resource spec file clharness did not write.
  for (const char* value : {"id:gpu_a,slots:1", "id:1234567,slots:1"})
    EXPECT_NE(usageError("gpus", allocated(value)).find("not a row number"), std::string::npos)
        << value;
  // A type ctest would not accept.
  for (const char* type : {"GPUS", "", "2gpus", "gpu-s"})
    EXPECT_NE(usageError(type, allocated()).find("is not a CTest resource type"), std::string::npos)
        << type;
}

TEST(CtestResources, TypeNamesAreCtests) {
  EXPECT_TRUE(clh::isCtestResourceType("gpus"));
  EXPECT_TRUE(clh::isCtestResourceType("_x9"));
  EXPECT_FALSE(clh::isCtestResourceType("Gpus"));
  EXPECT_FALSE(clh::isCtestResourceType("9x"));
  EXPECT_FALSE(clh::isCtestResourceType("a.b"));
}

TEST(CtestResources, SpecFileHasOneResourcePerDeviceByRowNumber) {
  std::vector<clh::DeviceInfo> devices(2);
  devices[0].number = 2;
  devices[1].number = 5;
  const auto spec = nlohmann::json::parse(clh::ctestResourceSpec("gpus", devices));
  EXPECT_EQ(spec["version"], (nlohmann::json{{"major", 1}, {"minor", 0}}));
  ASSERT_EQ(spec["local"].size(), 1u);
  EXPECT_EQ(spec["local"][0],
            (nlohmann::json{{"gpus", {{{"id", "2"}, {"slots", 1}}, {{"id", "5"}, {"slots", 1}}}}}));
  // No device: an empty list, still a valid file.
  EXPECT_EQ(nlohmann::json::parse(clh::ctestResourceSpec("gpus", {}))["local"][0]["gpus"].size(),
            0u);
  EXPECT_THROW(clh::ctestResourceSpec("GPUs", devices), std::invalid_argument);
}

}  // namespace
