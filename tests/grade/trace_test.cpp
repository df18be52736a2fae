// Tests of "which statement wrote it": the request the parent sends the simulator, the plugin's
// watch lines, and the notes a real device's evidence gets from the simulator's trace (no device).
#include "grade/trace.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "grade/device_job.hpp"
#include "sim/oclgrind_watch.hpp"

namespace clh::grade {
namespace {

const std::string kTracePocl = "Portable Computing Language: pthread-x";
const std::string kTraceSim = "Oclgrind: Oclgrind Simulator";

DeviceRun wrongOn(const std::string& device, bool simulator) {
  DeviceRun r;
  r.device = device;
  r.simulator = simulator;
  UnitResult u;
  CaseOutcome c;
  c.sizes = {{"N", 1}};
  Finding f;
  f.kind = FindingKind::wrong_result;
  f.summary = "c: 2 of 2 elements differ from the reference";
  f.mismatches = {{"c", {0}, "0", "1", false}, {"c", {1}, "0", "2", false}};
  f.mismatch_count = 2;
  c.findings = {f};
  u.failing = c;
  r.unit = u;
  return r;
}

Evidence evidenceOf(const DeviceRun& r) {
  Evidence e;
  e.device = r.device;
  e.sizes = r.unit->failing->sizes;
  e.findings = r.unit->failing->findings;
  return e;
}

TEST(Trace, TheRequestIsTheFirstRealDevicesWrongElements) {
  DeviceRun sim = wrongOn(kTraceSim, true);
  EXPECT_FALSE(traceRequest({sim})) << "only a real device's failure is replayed";
  auto t = traceRequest({wrongOn(kTracePocl, false), sim});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->device, kTracePocl);
  EXPECT_EQ(t->sizes, (Sizes{{"N", 1}}));
  ASSERT_EQ(t->elements.size(), 2u);
  EXPECT_EQ(t->elements[1].index, std::vector<int64_t>{1});
  nlohmann::json j = *t;
  EXPECT_EQ(nlohmann::json(j.get<SimulatorTrace>()), j);
}

TEST(Trace, PluginWatchLinesSayWhoStored) {
  std::istringstream log(
      R"({"v":1,"event":"message","launch":1,"text":"x"}
{"v":1,"event":"watch","pid":1,"context":1,"launch":3,"kernel":"vadd","element":"1","stores":2,"lines":[{"line":7,"file":"input.cl","source":"  c[i] = a[i];"},{"line":9,"file":"input.cl","source":"c[i] += 1;"}],"last":{"work_item":{"global":[1,0,0],"local":[1,0,0]},"location":{"line":9,"file":"input.cl","source":"c[i] += 1;"}}}
{"v":1,"event":"watch","launch":3,"kernel":"vadd","element":"0","stores":0,"lines":[]}
)");
  auto stores = parseWatchLines(log, "bob.cl");
  ASSERT_EQ(stores.size(), 2u);
  EXPECT_EQ(stores[0].element, "1");
  EXPECT_EQ(stores[0].stores, 2);
  ASSERT_EQ(stores[0].lines.size(), 2u);
  EXPECT_EQ(stores[0].lines[0].file, "bob.cl");
  EXPECT_EQ(stores[0].lines[0].text, "c[i] = a[i];");
  EXPECT_EQ(stores[0].last_line.line, 9);
  EXPECT_EQ(stores[0].last_work_item, "global(1,0,0) local(1,0,0)");
  EXPECT_EQ(stores[1].stores, 0);
}

TEST(Trace, TheRealDevicesEvidenceGetsTheStatementThatWroteIt) {
  DeviceRun real = wrongOn(kTracePocl, false), sim = wrongOn(kTraceSim, true);
  SimulatorTrace t = *traceRequest({real});
  t.elements[0].stores = 1;
  t.elements[0].lines = {{"bob.cl", 7, "c[i] = a[i] + b[i + 1];"}};
  t.elements[0].last_line = t.elements[0].lines[0];
  t.elements[0].last_work_item = "global(0,0,0) local(0,0,0)";
  t.elements[0].on_simulator = "wrong";
  t.elements[1].stores = 0;
  t.elements[1].on_simulator = "unwritten";
  sim.trace = t;
  Evidence e = evidenceOf(real);
  explainWithTrace(e, {real, sim}, {{"c", "out"}});
  EXPECT_NE(e.note.find("out[0] was last written by line 7 (`c[i] = a[i] + b[i + 1];`), work-item "
                        "global(0,0,0)"),
            std::string::npos)
      << e.note;
  EXPECT_NE(e.note.find("no statement of your kernel wrote out[1]"), std::string::npos) << e.note;
  ASSERT_EQ(e.findings[0].lines.size(), 1u);
  EXPECT_EQ(e.findings[0].lines[0].line, 7);

  Evidence onSim = evidenceOf(sim);
  explainWithTrace(onSim, {real, sim}, {});
  EXPECT_TRUE(onSim.note.empty()) << "the trace explains the real device's evidence";
}

TEST(Trace, WhenTheSimulatorCannotTellItSaysSo) {
  DeviceRun real = wrongOn(kTracePocl, false), sim = wrongOn(kTraceSim, true);
  Evidence e = evidenceOf(real);
  explainWithTrace(e, {real}, {});
  EXPECT_TRUE(e.note.empty()) << "no simulator was asked";

  sim.end = RunEnd::timeout;
  e = evidenceOf(real);
  explainWithTrace(e, {real, sim}, {});
  EXPECT_EQ(e.note,
            "The simulator could not tell which statement wrote these elements: its run ended in "
            "timeout");

  sim.end = RunEnd::completed;
  SimulatorTrace t = *traceRequest({real});
  t.problem = "the simulator could not run this case (tool_error)";
  sim.trace = t;
  e = evidenceOf(real);
  explainWithTrace(e, {real, sim}, {});
  EXPECT_NE(e.note.find("could not tell which statement wrote these elements: the simulator could "
                        "not run this case"),
            std::string::npos)
      << e.note;

  t.problem.clear();
  for (auto& el : t.elements) {
    el.stores = 1;
    el.on_simulator = "right";
  }
  sim.trace = t;
  e = evidenceOf(real);
  explainWithTrace(e, {real, sim}, {});
  EXPECT_NE(e.note.find("it computes c[0] right in this case, so it cannot tell"),
            std::string::npos)
      << e.note;
  EXPECT_TRUE(e.findings[0].lines.empty()) << "no line for a value the simulator got right";

  t.sizes = {{"N", 2}};  // another case than the evidence's: says nothing of it
  sim.trace = t;
  e = evidenceOf(real);
  explainWithTrace(e, {real, sim}, {});
  EXPECT_NE(e.note.find("it did not replay this case"), std::string::npos) << e.note;
}

TEST(Trace, TheChildsTraceEventReachesTheRun) {
  std::istringstream ev(R"({"event":"case_start","sizes":{"N":1}}
{"event":"unit","unit":{"device":"x","status":"pass","cases_run":1,"seconds":0.5},"cases_asked":10}
{"event":"trace","trace":{"device":"P","sizes":{"N":1},"elements":[{"buffer":"c","index":[0],"stores":0,"lines":[],"on_simulator":"unwritten"}]}}
)");
  DeviceRun r = collectDeviceRun(ev, ChildEnd{}, {kTraceSim, "simulator", true});
  EXPECT_EQ(r.cases_asked, 10);
  ASSERT_TRUE(r.trace);
  EXPECT_EQ(r.trace->elements.at(0).on_simulator, "unwritten");
  EXPECT_EQ(r.trace->elements.at(0).stores, 0);
}

}  // namespace
}  // namespace clh::grade
