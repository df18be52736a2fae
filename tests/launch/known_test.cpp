// Unit tests of known deviations and the family's JSON: which failures a baseline entry covers
// (rules as a subset, any signal as "crash", result kinds), what --write-baselines collects, and
// that a child's JSON lines rebuild the values exactly.
#include "launch/known.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "launch/json.hpp"

using namespace clh::launch;

namespace {

ShapeCheck deviating(const std::vector<std::string>& rules, clh::launch::Outcome got) {
  ShapeCheck c;
  c.index = 4;
  c.shape.kind = "local_mem_over";
  c.shape.config.work_dim = 2;
  c.shape.config.global = {16, 16};
  c.shape.config.local = std::vector<size_t>{8, 8};
  c.shape.config.dynamic_local_bytes = 1 << 21;
  c.shape.local_arg_bytes = {1 << 20, 1 << 20};
  c.shape.checkable = true;
  c.text = "local_mem_over 2D global {16,16} local {8,8}";
  for (const auto& id : rules)
    c.prediction.rules.push_back({id, "because", {{clh::launch::Stage::enqueue, -5}}});
  c.prediction.allowed = {{clh::launch::Stage::enqueue, -5}};
  c.got = got;
  c.conforms = c.prediction.accepts(got);
  return c;
}

clh::Finding finding(clh::FindingKind kind) {
  clh::Finding f;
  f.kind = kind;
  f.summary = "C: 4 of 64 elements differ from the reference";
  return f;
}

const clh::launch::Outcome kKnownRan{clh::launch::Stage::completion, 0};

}  // namespace

TEST(KnownDeviations, AConformingShapeHasNoFailure) {
  ShapeCheck c = deviating({"local_mem.over_device"}, {clh::launch::Stage::enqueue, -5});
  ASSERT_TRUE(c.conforms);
  EXPECT_TRUE(failureKeys(c).empty());
  KnownDeviations none;
  EXPECT_TRUE(none.uncovered(c).empty());
}

TEST(KnownDeviations, AnEntryCoversTheSameGotWhenItsRulesAreAllBroken) {
  const ShapeCheck one = deviating({"local_mem.over_device"}, kKnownRan);
  const ShapeCheck two = deviating({"local.not_dividing", "local_mem.over_device"}, kKnownRan);
  KnownDeviations k;
  k.entries.push_back(
      {"", "local_mem.over_device", "completion: CL_SUCCESS (0)", "", "PoCL runs it", ""});
  EXPECT_TRUE(k.uncovered(one).empty());
  EXPECT_TRUE(k.uncovered(two).empty());  // the entry's rule is among those broken

  KnownDeviations both;
  both.entries.push_back(
      {"", "local.not_dividing+local_mem.over_device", "completion: CL_SUCCESS (0)", "", "", ""});
  EXPECT_TRUE(both.uncovered(two).empty());
  ASSERT_EQ(both.uncovered(one).size(), 1u);  // one rule only: not covered
  EXPECT_EQ(both.uncovered(one)[0].rule, "local_mem.over_device");

  const ShapeCheck other =
      deviating({"local_mem.over_device"}, {clh::launch::Stage::completion, -5});
  EXPECT_EQ(k.uncovered(other).size(), 1u);  // another outcome is another deviation
}

TEST(KnownDeviations, AnEntryNamingAFamilyCoversOnlyThatFamily) {
  ShapeCheck c = deviating({}, {clh::launch::Stage::enqueue, -54});
  c.prediction.rules.clear();
  c.prediction.allowed = {kKnownRan};
  c.conforms = false;
  c.shape.kind = "reqd_null_local";
  KnownDeviations k;
  k.entries.push_back(
      {"reqd_null_local", "none", "enqueue: CL_INVALID_WORK_GROUP_SIZE (-54)", "", "", ""});
  EXPECT_TRUE(k.uncovered(c).empty());
  c.shape.kind = "valid";  // a valid launch refused with the same code is a new deviation
  EXPECT_EQ(k.uncovered(c).size(), 1u);
  EXPECT_EQ(failureKeys(c).at(0).kind, "valid");
}

TEST(KnownDeviations, ACrashIsKnownWhateverTheSignalAndATimeoutIsNot) {
  ShapeCheck c = deviating({"local.zero"}, kKnownRan);
  c.prediction.allowed.push_back(kKnownRan);
  c.died = "SIGABRT";
  c.conforms = false;
  KnownDeviations k;
  k.entries.push_back({"zero_local", "local.zero", "crash", "", "PoCL dies", ""});
  c.shape.kind = "zero_local";
  EXPECT_EQ(failureKeys(c).at(0).got, "crash");
  EXPECT_TRUE(k.uncovered(c).empty());
  c.died = "SIGSEGV";
  EXPECT_TRUE(k.uncovered(c).empty());
  c.died = "timeout";
  EXPECT_EQ(k.uncovered(c).size(), 1u);
}

TEST(KnownDeviations, AFailureTheSpecExpectsOfItsKernelIsNoDeviation) {
  ShapeCheck c = deviating({}, {clh::launch::Stage::enqueue, -5});
  c.prediction.rules.clear();
  c.prediction.allowed = {kKnownRan};
  c.conforms = false;
  ASSERT_EQ(failureKeys(c).size(), 1u);
  c.spec_expected = true;  // an as-published kernel whose private array the device cannot hold
  EXPECT_TRUE(failureKeys(c).empty());
  EXPECT_NE(c.toString().find("the spec expects this of its kernel"), std::string::npos);
  LaunchFamilyResult r;
  r.shapes = {c};
  EXPECT_EQ(r.deviating(), 0);
  EXPECT_EQ(r.specExpected(), 1);
  EXPECT_TRUE(shapeCheckFromJson(toJson(c)).spec_expected);
}

TEST(KnownDeviations, ResultMismatchesAreKeyedByTheKindsFound) {
  ShapeCheck c = deviating({}, kKnownRan);
  c.prediction.rules.clear();
  c.prediction.allowed = {kKnownRan};
  c.conforms = true;
  c.results_checked = true;
  c.result_findings = {finding(clh::FindingKind::unwritten)};
  const auto keys = failureKeys(c);
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].rule, "none");
  EXPECT_EQ(keys[0].results, "unwritten");

  KnownDeviations k;
  k.entries.push_back({"", "none", "completion: CL_SUCCESS (0)", "unwritten+wrong_result", "", ""});
  EXPECT_TRUE(k.uncovered(c).empty());
  c.result_findings.push_back(finding(clh::FindingKind::out_of_bounds));
  EXPECT_EQ(k.uncovered(c).size(), 1u);  // a kind the entry does not list is new
  KnownDeviations code_only;
  code_only.entries.push_back({"", "none", "completion: CL_SUCCESS (0)", "", "", ""});
  EXPECT_EQ(code_only.uncovered(c).size(), 1u);  // an outcome entry never covers wrong results
}

TEST(KnownDeviations, CollectingKeepsOneEntryPerKeyAndKnownReasons) {
  LaunchFamilyResult r;
  r.spec = "handson_mmul_block";
  r.device = "Portable Computing Language: pthread";
  r.shapes = {deviating({"local_mem.over_device"}, kKnownRan),
              deviating({"local_mem.over_device"}, kKnownRan),
              deviating({"global.zero"}, kKnownRan),
              deviating({"local_mem.over_device"}, {clh::launch::Stage::enqueue, -5})};
  clh::DeviceInfo dev;
  dev.platform = "Portable Computing Language";
  dev.name = "pthread";
  ASSERT_EQ(dev.displayName(), r.device);
  KnownDeviations keep;
  keep.entries.push_back(
      {"local_mem_over", "global.zero", "completion: CL_SUCCESS (0)", "", "kept reason", ""});
  const KnownDeviations out = collectDeviations({r}, dev, keep);
  ASSERT_EQ(out.entries.size(), 2u);
  EXPECT_EQ(out.entries[0].rule, "local_mem.over_device");
  EXPECT_NE(out.entries[0].reason.find("first seen: handson_mmul_block #4"), std::string::npos);
  EXPECT_EQ(out.entries[1].reason, "kept reason");

  const KnownDeviations back = knownDeviationsFromJson(toJson(out));
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_TRUE(back.found);
  EXPECT_EQ(back.entries[1].rule, "global.zero");
  EXPECT_EQ(back.entries[1].got, out.entries[1].got);
  // Each entry names what the specification allows, beside what the driver gave.
  EXPECT_EQ(out.entries[0].allowed, "enqueue: CL_OUT_OF_RESOURCES (-5)");
  EXPECT_EQ(back.entries[0].allowed, out.entries[0].allowed);
}

TEST(LaunchJson, AShapeCheckSurvivesTheChildProtocol) {
  ShapeCheck c = deviating({"local_mem.over_device"}, kKnownRan);
  c.shape.config.offset = std::vector<size_t>{3, 0};
  c.shape.variant = 2;
  c.kernel.work_group_size = 4096;
  c.kernel.compile_work_group_size = {8, 8, 1};
  c.prediction.notes = {"a note"};
  c.results_checked = true;
  c.result_findings = {finding(clh::FindingKind::wrong_result)};
  const ShapeCheck back = shapeCheckFromJson(toJson(c));
  EXPECT_EQ(back.index, c.index);
  EXPECT_EQ(back.text, c.text);
  EXPECT_EQ(back.shape.kind, c.shape.kind);
  EXPECT_EQ(back.shape.variant, 2u);
  EXPECT_EQ(back.shape.config.offset, c.shape.config.offset);
  EXPECT_EQ(back.shape.config.local, c.shape.config.local);
  EXPECT_EQ(back.shape.config.dynamic_local_bytes, c.shape.config.dynamic_local_bytes);
  EXPECT_EQ(back.shape.local_arg_bytes, c.shape.local_arg_bytes);
  EXPECT_EQ(back.kernel.compile_work_group_size, c.kernel.compile_work_group_size);
  EXPECT_EQ(back.prediction.allowedToString(), c.prediction.allowedToString());
  EXPECT_EQ(back.prediction.rules.at(0).id, "local_mem.over_device");
  EXPECT_EQ(back.got, c.got);
  EXPECT_EQ(back.conforms, c.conforms);
  ASSERT_EQ(back.result_findings.size(), 1u);
  EXPECT_EQ(back.result_findings[0].summary, c.result_findings[0].summary);
  EXPECT_EQ(back.toString(), c.toString());
}

TEST(LaunchJson, AFamilyHeaderSurvivesTheChildProtocol) {
  LaunchFamilyResult r;
  r.spec = "s";
  r.spec_file = "specs/s.yaml";
  r.device = "D";
  r.sizes = {{"N", 7}};
  r.seed = 42;
  r.launch.global = {7};
  r.launch.local = {7};
  r.launch.local_arg_bytes = {28};
  r.launch.local_arg_elem = {4};
  r.launch.device.opencl_major = 3;
  r.launch.device.opencl_minor = 0;
  r.launch.device.max_work_item_sizes = {4096, 4096, 4096};
  r.launch.variants = {{"spec", "", {}},
                       {"cl3.0", "-cl-std=CL3.0", clh::launch::parseBuildOptions("-cl-std=CL3.0")}};
  r.kinds = {"spec", "offset"};
  r.omitted = {{"valid", "contract"}};
  r.notes = {"a note"};
  r.shapes = {deviating({"global.zero"}, kKnownRan)};
  const LaunchFamilyResult back = familyFromJson(toJson(r, true));
  EXPECT_EQ(back.sizes, r.sizes);
  EXPECT_EQ(back.seed, 42u);
  EXPECT_EQ(back.launch.global, r.launch.global);
  EXPECT_EQ(back.launch.device.opencl_major, 3);
  EXPECT_EQ(back.launch.variants.at(1).program.cl_std_major, 3);
  EXPECT_EQ(back.kinds, r.kinds);
  EXPECT_EQ(back.omitted, r.omitted);
  EXPECT_EQ(back.shapes.size(), 1u);
  EXPECT_FALSE(familyFromJson(toJson(r, false)).shapes.size());

  KnownDeviations known;
  known.entries.push_back({"", "global.zero", "completion: CL_SUCCESS (0)", "", "", ""});
  const auto summary = summaryJson(back, &known);
  EXPECT_EQ(summary["deviating"], 1);
  EXPECT_EQ(summary["known_failures"], 1);
  EXPECT_EQ(summary["new_failures"], 0);
  ASSERT_EQ(summary["failures"].size(), 1u);
  EXPECT_EQ(summary["failures"][0]["got"], "completion: CL_SUCCESS (0)");
  EXPECT_EQ(summary["failures"][0]["indices"], nlohmann::json::array({4}));
  EXPECT_EQ(summary["failures"][0]["known"], true);
  EXPECT_EQ(summaryJson(back, nullptr)["new_failures"], 1);
}
