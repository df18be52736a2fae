// mergeReports on made-up shards: machines with different devices merge into one report with every
// device's driver section, nothing of one machine reported missing for lack of another's device or
// specs; an interrupted input or a missing shard makes the merge incomplete, naming the shard;
// each unit keeps the tool version that ran it.
#include "run/merge.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/html.hpp"

namespace {

using clh::BaselineMark;
using clh::DriverFinding;
using clh::DriverReport;
using clh::Report;
using clh::UnitResult;

UnitResult unit(const std::string& spec, const std::string& device,
                const std::string& family = "cases") {
  UnitResult u;
  u.spec = spec;
  u.spec_file = "specs/" + spec + ".yaml";
  u.device = device;
  u.family = family;
  return u;
}

DriverFinding finding(const std::string& check, BaselineMark mark) {
  DriverFinding f;
  f.check = check;
  f.mark = mark;
  return f;
}

DriverReport section(const std::string& device, std::vector<DriverFinding> findings,
                     std::vector<std::string> conforming = {"read.blocking"}) {
  DriverReport d;
  d.device = device;
  d.findings = std::move(findings);
  d.conforming_checks = std::move(conforming);
  d.conforming = static_cast<int>(d.conforming_checks.size());
  return d;
}

// A shard of a run on a machine with `devices`: every spec on every device, both families.
Report shard(const std::string& k_of_n, const std::vector<std::string>& specs,
             const std::vector<std::string>& devices) {
  Report r;
  r.tool_version = "clharness test";
  r.seed = 1;
  r.shard = k_of_n;
  r.devices = devices;
  for (const auto& s : specs)
    for (const auto& d : devices) {
      r.units.push_back(unit(s, d));
      r.units.push_back(unit(s, d, "launch"));
    }
  for (const auto& d : devices) r.drivers.push_back(section(d, {}));
  return r;
}

const std::string kPocl = "Portable Computing Language: cpu";
const std::string kSim = "Oclgrind: Oclgrind Simulator";
const std::string kGpu = "NVIDIA CUDA: NVIDIA H100";

TEST(Merge, NodesWithDifferentDevicesMergeIntoOneReportOfEveryDevice) {
  // Shard 0 on a machine with PoCL and a GPU, shard 1 on one with PoCL and the simulator.
  const Report a = shard("0/2", {"a", "c"}, {kPocl, kGpu});
  const Report b = shard("1/2", {"b"}, {kPocl, kSim});
  const auto m = clh::mergeReports({a, b}, {"a.json", "b.json"});
  EXPECT_TRUE(m.notes.empty()) << m.notes.front();
  EXPECT_TRUE(m.complete);
  EXPECT_TRUE(m.report.interrupted_by.empty());
  EXPECT_EQ(m.report.devices, (std::vector<std::string>{kPocl, kGpu, kSim}));
  // Each unit once: a spec has units on the devices of the machine that ran it, and only there.
  EXPECT_EQ(m.report.units.size(), a.units.size() + b.units.size());
  const auto count = [&](const std::string& spec, const std::string& device) {
    return std::count_if(m.report.units.begin(), m.report.units.end(),
                         [&](const UnitResult& u) { return u.spec == spec && u.device == device; });
  };
  EXPECT_EQ(count("a", kGpu), 2);
  EXPECT_EQ(count("a", kSim), 0);
  EXPECT_EQ(count("b", kSim), 2);
  EXPECT_EQ(count("b", kPocl), 2);
  // One driver section per device, and a column per device in the HTML report's matrix.
  ASSERT_EQ(m.report.drivers.size(), 3u);
  const auto matrix = clh::html::driverMatrix(m.report.drivers);
  EXPECT_EQ(matrix.devices, (std::vector<std::string>{kPocl, kGpu, kSim}));
}

TEST(Merge, AFindingOneShardMissesAndAnotherSawIsSeen) {
  // The baseline records a launch failure of spec b; shard 0 (specs a, c) did not run b and marks
  // it missing, shard 1 saw it. In either order, the merge has it once, as shard 1 saw it.
  const std::string launch = "shape.over_kernel_max -> enqueue: CL_SUCCESS (0)";
  Report a = shard("0/2", {"a", "c"}, {kPocl});
  Report b = shard("1/2", {"b"}, {kPocl});
  a.drivers[0].findings = {finding(launch, BaselineMark::missing),
                           finding("read.gone", BaselineMark::missing)};
  b.drivers[0].findings = {finding(launch, BaselineMark::known),
                           finding("read.gone", BaselineMark::missing)};
  for (const bool swapped : {false, true}) {
    const auto m = swapped ? clh::mergeReports({b, a}, {"b.json", "a.json"})
                           : clh::mergeReports({a, b}, {"a.json", "b.json"});
    ASSERT_EQ(m.report.drivers.size(), 1u);
    const auto& fs = m.report.drivers[0].findings;
    ASSERT_EQ(fs.size(), 2u) << "swapped " << swapped;
    for (const auto& f : fs) {
      // What no shard saw stays missing.
      EXPECT_EQ(f.mark, f.check == launch ? BaselineMark::known : BaselineMark::missing)
          << f.check << (swapped ? " (shard 1 first)" : "");
    }
  }
}

TEST(Merge, AnInterruptedShardMakesTheMergeIncompleteAndIsNamed) {
  const Report a = shard("0/2", {"a", "c"}, {kPocl});
  Report b = shard("1/2", {"b", "d"}, {kPocl});
  b.units.resize(1);  // SIGTERM after one unit of four
  b.interrupted_by = "SIGTERM";
  b.units_planned = 4;
  const auto m = clh::mergeReports({a, b}, {"shard-0.json", "shard-1.json"});
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_EQ(m.notes[0],
            "shard-1.json (shard 1/2) is incomplete (interrupted by SIGTERM: 1 of 4 units ran)");
  EXPECT_FALSE(m.complete);
  EXPECT_EQ(m.report.interrupted_by, "SIGTERM");
  EXPECT_EQ(m.report.units.size(), 5u);
  EXPECT_EQ(m.report.units_planned, 8u);  // its JSON, JUnit and HTML say 5 of 8
}

TEST(Merge, AMissingShardMakesTheMergeIncomplete) {
  const auto m = clh::mergeReports({shard("0/3", {"a"}, {kPocl}), shard("2/3", {"c"}, {kPocl})},
                                   {"shard-0.json", "shard-2.json"});
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_EQ(m.notes[0], "shard 1/3 is missing: its specs are not in the merge");
  EXPECT_FALSE(m.complete);
  const auto whole = clh::mergeReports({shard("0/2", {"a"}, {kPocl}), shard("1/2", {"b"}, {kPocl})},
                                       {"s0.json", "s1.json"});
  EXPECT_TRUE(whole.complete);
  EXPECT_TRUE(whole.notes.empty());
}

// Two machines that both ran the whole catalog, one with the simulator too: the units of the
// device both have come twice (said, the first kept), the simulator's once.
TEST(Merge, AUnitOfADeviceOnBothMachinesComesOnce) {
  const auto m = clh::mergeReports({shard("", {"a"}, {kPocl}), shard("", {"a"}, {kPocl, kSim})},
                                   {"one.json", "two.json"});
  EXPECT_EQ(m.report.units.size(), 4u);
  EXPECT_EQ(m.notes.size(), 2u);  // a and a [launch] on PoCL
  for (const auto& n : m.notes) EXPECT_NE(n.find("came twice"), std::string::npos) << n;
  EXPECT_TRUE(m.complete);
}

// Issue 43: a merge of reports of two tool versions warned and named the first version for every
// unit. Each unit keeps the version that ran it, in the report and its JSON.
TEST(Merge, EachUnitKeepsTheToolVersionThatRanIt) {
  Report a = shard("0/2", {"a"}, {kPocl});
  Report b = shard("1/2", {"b"}, {kPocl});
  a.tool_version = "0.1.0 (git aaaaaaa)";
  b.tool_version = "0.1.1 (git bbbbbbb)";
  const auto m = clh::mergeReports({a, b}, {"old.json", "new.json"});
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("new.json was made with clharness 0.1.1 (git bbbbbbb)"),
            std::string::npos)
      << m.notes[0];
  EXPECT_EQ(m.report.tool_version, "0.1.0 (git aaaaaaa), 0.1.1 (git bbbbbbb)");
  ASSERT_EQ(m.report.units.size(), 4u);
  for (const auto& u : m.report.units)
    EXPECT_EQ(u.tool_version, u.spec == "a" ? a.tool_version : b.tool_version) << u.spec;
  const nlohmann::json j = m.report;
  EXPECT_EQ(j["units"][0]["tool_version"], a.tool_version);
  EXPECT_EQ(j["units"].back()["tool_version"], b.tool_version);
  // One version: nothing changes, and no unit repeats it.
  const auto same = clh::mergeReports({shard("0/2", {"a"}, {kPocl}), shard("1/2", {"b"}, {kPocl})},
                                      {"x.json", "y.json"});
  EXPECT_TRUE(same.notes.empty());
  EXPECT_EQ(same.report.tool_version, "clharness test");
  for (const auto& u : same.report.units) EXPECT_TRUE(u.tool_version.empty());
  EXPECT_FALSE(nlohmann::json(same.report)["units"][0].contains("tool_version"));
}

}  // namespace
