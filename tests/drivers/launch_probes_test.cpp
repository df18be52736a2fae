// Unit tests of how a launch row reads its shapes: a success that ran no work-item deviates and
// says so, and the zero_local row states the rule predictLaunch() applies. No device is involved.
#include "drivers/launch_probes.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "cl/opencl.hpp"
#include "launch/shapes.hpp"

using namespace clh::drivers;
using namespace clh::launch;

namespace {

DeviceLimits oclgrindLike() {
  DeviceLimits d;
  d.opencl_major = 1;
  d.opencl_minor = 2;
  d.max_work_group_size = 1024;
  d.max_work_item_sizes = {1024, 1024, 1024};
  d.local_mem_size = 32768;
  return d;
}

LaunchConfig zeroLocal() {
  LaunchConfig c;
  c.work_dim = 1;
  c.global = {64, 1, 1};
  c.local = std::vector<size_t>{0, 1, 1};
  return c;
}

const CheckInfo& row(const std::string& id) {
  const auto& all = launchChecks();
  auto it = std::find_if(all.begin(), all.end(), [&](const CheckInfo& c) { return c.id == id; });
  EXPECT_NE(it, all.end()) << id;
  return *it;
}

}  // namespace

// What Oclgrind 21.10 does with global {64} local {0}: CL_SUCCESS, and none of the 64 work-items
// runs. The rule allows success only as running (as with a NULL local size): it deviates.
TEST(LaunchShapeResult, SuccessWithoutRunningDeviates) {
  ShapeResult r;
  r.shape = {"zero_local", zeroLocal()};
  r.kernel = {1024, 0, {0, 0, 0}};
  r.prediction = predictLaunch(oclgrindLike(), r.kernel, ProgramOptions{}, r.shape.config);
  r.got = {Stage::completion, CL_SUCCESS};
  r.work_items = workItems(r.shape.config);
  ASSERT_EQ(r.work_items, 64u);
  r.not_run = 64;
  r.conforms = r.prediction.acceptsRun(r.got, r.not_run);
  EXPECT_FALSE(r.conforms);
  EXPECT_EQ(r.gotText(), "completion: CL_SUCCESS (0), but 64 of 64 work-items did not run");
  EXPECT_NE(r.requiredText().find("completion: CL_SUCCESS (0) running every work-item"),
            std::string::npos)
      << r.requiredText();
  EXPECT_NE(r.toString().find("did not run: deviates"), std::string::npos) << r.toString();
  // Every work-item ran: the same success conforms, and reads as the plain outcome.
  r.not_run = 0;
  EXPECT_TRUE(r.prediction.acceptsRun(r.got, r.not_run));
  EXPECT_EQ(r.gotText(), "completion: CL_SUCCESS (0)");
  EXPECT_EQ(r.requiredText(), r.prediction.allowedToString());
}

TEST(LaunchShapeResult, WorkItemsOfALaunch) {
  LaunchConfig c = zeroLocal();
  c.work_dim = 2;
  c.global = {8, 3, 5};
  EXPECT_EQ(workItems(c), 24u);  // dimensions past work_dim do not count
  c.global = {8, 0, 5};
  EXPECT_EQ(workItems(c), 0u);
  c.work_dim = 0;
  EXPECT_EQ(workItems(c), 0u);
  c.work_dim = 4;
  EXPECT_EQ(workItems(c), 0u);
  c.work_dim = 1;
  c.global.clear();
  EXPECT_EQ(workItems(c), 0u);
}

// The zero_local row's text is the rule predictLaunch() applies ("local.zero"): each outcome it
// allows is named, and success is running every work-item.
TEST(LaunchRows, ZeroLocalRuleIsLocalZero) {
  const std::string& text = row("launch.zero_local").rule;
  auto p = predictLaunch(oclgrindLike(), {1024, 0, {0, 0, 0}}, ProgramOptions{}, zeroLocal());
  ASSERT_EQ(p.rules.size(), 1u);
  EXPECT_EQ(p.rules[0].id, "local.zero");
  EXPECT_NE(text.find("local.zero"), std::string::npos) << text;
  for (const auto& o : p.allowed) {
    const std::string code = clh::clErrorName(o.code);
    if (o.code == CL_SUCCESS)
      EXPECT_NE(text.find("running every work-item as with a NULL local size"), std::string::npos)
          << text;
    else
      EXPECT_NE(text.find(code), std::string::npos) << code << " in: " << text;
  }
  // The rows where a launch may run say that every work-item runs.
  for (const char* id : {"launch.valid", "launch.null_local", "launch.not_dividing",
                         "launch.reqd_null_local", "launch.offset"})
    EXPECT_NE(row(id).rule.find("every work-item"), std::string::npos) << id;
}
