// The JSON form of device runs, evidence, item grades and grades (grade/grade.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "core/shell.hpp"
#include "grade/grade.hpp"
#include "grade/speed.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace clh::grade {

void to_json(json& j, const SpeedSample& s) {
  j = {{"sizes", s.sizes}, {"student_ns", s.student_ns}, {"reference_ns", s.reference_ns}};
  if (s.ratio() > 0) j["ratio"] = s.ratio();
  if (!s.ratios.empty()) {
    const RatioSpread spread = ratioSpread(s.ratios);
    j["rounds"] = spread.rounds;
    j["ratios"] = s.ratios;
    j["quartiles"] = {spread.q1, spread.q3};
    j["range"] = {spread.min, spread.max};
  }
  if (!s.problem.empty()) j["problem"] = s.problem;
  if (s.rerun) {
    json rerun = {{"counted", s.alone ? "alone" : "first"}};
    if (!s.other_ratios.empty()) {
      rerun["other_ratio"] = quantile(s.other_ratios, 0.5);
      rerun["other_ratios"] = s.other_ratios;
    }
    if (!s.rerun_problem.empty()) rerun["problem"] = s.rerun_problem;
    j["rerun"] = rerun;
  }
}
void from_json(const json& j, SpeedSample& s) {
  s.sizes = j.value("sizes", Sizes{});
  s.student_ns = j.value("student_ns", 0.0);
  s.reference_ns = j.value("reference_ns", 0.0);
  s.ratios = j.value("ratios", std::vector<double>{});
  s.problem = j.value("problem", "");
  if (j.contains("rerun") && j["rerun"].is_object()) {
    const json& r = j["rerun"];
    s.rerun = true;
    s.alone = r.value("counted", "") == "alone";
    s.other_ratios = r.value("other_ratios", std::vector<double>{});
    s.rerun_problem = r.value("problem", "");
  }
}

void to_json(json& j, const ElementTrace& e) {
  j = {{"buffer", e.buffer},
       {"index", e.index},
       {"stores", e.stores},
       {"lines", e.lines},
       {"on_simulator", e.on_simulator}};
  if (e.last_line.line > 0) j["last_line"] = e.last_line;
  if (!e.last_work_item.empty()) j["last_work_item"] = e.last_work_item;
}
void from_json(const json& j, ElementTrace& e) {
  e.buffer = j.value("buffer", "");
  e.index = j.value("index", std::vector<int64_t>{});
  e.stores = j.value("stores", -1L);
  e.lines = j.value("lines", std::vector<SourceLine>{});
  e.on_simulator = j.value("on_simulator", "unknown");
  e.last_line = j.value("last_line", SourceLine{});
  e.last_work_item = j.value("last_work_item", "");
}
void to_json(json& j, const SimulatorTrace& t) {
  j = {{"device", t.device}, {"sizes", t.sizes}, {"elements", t.elements}};
  if (!t.problem.empty()) j["problem"] = t.problem;
}
void from_json(const json& j, SimulatorTrace& t) {
  t.device = j.value("device", "");
  t.sizes = j.value("sizes", Sizes{});
  t.elements = j.value("elements", std::vector<ElementTrace>{});
  t.problem = j.value("problem", "");
}

void to_json(json& j, const DeviceRun& r) {
  j = {{"device", r.device},     {"device_kind", r.device_kind},     {"simulator", r.simulator},
       {"end", toString(r.end)}, {"cases_started", r.cases_started}, {"seconds", r.seconds}};
  if (r.distinct_cases > 0) j["distinct_cases"] = r.distinct_cases;
  if (r.cases_asked > 0) j["cases_asked"] = r.cases_asked;
  if (r.unit) j["unit"] = *r.unit;
  if (r.lost) j["lost"] = *r.lost;
  if (r.speed) j["speed"] = *r.speed;
  if (r.trace) j["trace"] = *r.trace;
  if (!r.note.empty()) j["note"] = r.note;
  if (r.sanitized) j["sanitized"] = true;
}
void from_json(const json& j, DeviceRun& r) {
  r.device = j.value("device", "");
  r.device_kind = j.value("device_kind", "");
  r.simulator = j.value("simulator", false);
  r.sanitized = j.value("sanitized", false);
  std::string end = j.value("end", "completed");
  for (RunEnd e : {RunEnd::completed, RunEnd::timeout, RunEnd::crashed, RunEnd::tool_error})
    if (end == toString(e)) r.end = e;
  r.cases_started = j.value("cases_started", 0);
  r.distinct_cases = j.value("distinct_cases", 0);
  r.cases_asked = j.value("cases_asked", 0);
  r.seconds = j.value("seconds", 0.0);
  r.note = j.value("note", "");
  if (j.contains("unit")) r.unit = j["unit"].get<UnitResult>();
  if (j.contains("lost")) r.lost = j["lost"].get<CaseOutcome>();
  if (j.contains("speed")) r.speed = j["speed"].get<SpeedSample>();
  if (j.contains("trace")) r.trace = j["trace"].get<SimulatorTrace>();
}

void to_json(json& j, const Evidence& e) {
  j = {{"device", e.device}, {"findings", e.findings}};
  if (e.sizes) j["sizes"] = *e.sizes;
  if (!e.replay.empty()) j["replay"] = e.replay;
  if (!e.symptoms.empty()) j["symptoms"] = e.symptoms;
  if (!e.note.empty()) j["note"] = e.note;
  if (!e.shrunk) j["shrunk"] = false;
}
void from_json(const json& j, Evidence& e) {
  e.device = j.value("device", "");
  e.findings = j.value("findings", std::vector<Finding>{});
  if (j.contains("sizes")) e.sizes = j["sizes"].get<Sizes>();
  e.replay = j.value("replay", "");
  e.symptoms = j.value("symptoms", std::vector<Finding>{});
  e.note = j.value("note", "");
  e.shrunk = j.value("shrunk", true);
}

void to_json(json& j, const ItemGrade& i) {
  json kinds = json::array();
  for (auto k : i.kinds) kinds.push_back(toString(k));
  j = {{"id", i.id},
       {"title", i.title},
       {"check", toString(i.check)},
       {"result", i.passed      ? "pass"
                  : i.partial() ? "partial"
                                : "fail"},
       {"points", i.points},
       {"max_points", i.max_points},
       {"kinds", kinds},
       {"assessed", i.assessed},
       {"not_students_fault", i.not_students_fault},
       {"evidence", i.evidence}};
  j["blocked_by"] = i.blocked_by.empty() ? json(nullptr) : json(i.blocked_by);
  if (!i.note.empty()) j["note"] = i.note;
}
void from_json(const json& j, ItemGrade& i) {
  i.id = j.value("id", "");
  i.title = j.value("title", "");
  i.check = itemCheckFromString(j.value("check", "results")).value_or(ItemCheck::results);
  i.passed = j.value("result", "fail") == "pass";
  i.points = j.value("points", 0.0);
  i.max_points = j.value("max_points", 0.0);
  i.kinds.clear();
  for (const auto& k : j.value("kinds", std::vector<std::string>{}))
    if (auto kind = findingKindFromString(k)) i.kinds.push_back(*kind);
  i.assessed = j.value("assessed", true);
  i.not_students_fault = j.value("not_students_fault", false);
  i.evidence = j.value("evidence", std::vector<Evidence>{});
  i.blocked_by = j.contains("blocked_by") && j["blocked_by"].is_string()
                     ? j["blocked_by"].get<std::string>()
                     : "";
  i.note = j.value("note", "");
}

void to_json(json& j, const Grade& g) {
  j = {{"schema", kGradeSchema},
       {"assignment", g.assignment},
       {"assignment_title", g.assignment_title},
       {"submission", g.submission},
       {"file", g.file},
       {"fingerprint", g.fingerprint},
       {"seed", g.seed},
       {"points", g.points},
       {"max_points", g.max_points},
       {"review", g.review},
       {"items", g.items},
       {"other_findings", g.other_findings},
       {"devices", g.runs},
       {"seconds", g.seconds},
       {"graded_at", g.graded_at}};
  if (!g.interface_differences.empty()) j["interface_differences"] = g.interface_differences;
  if (!g.unassessed.empty()) j["unassessed"] = g.unassessed;
  if (!g.sandbox.empty()) j["sandbox"] = g.sandbox;
}
void from_json(const json& j, Grade& g) {
  if (j.value("schema", "") != kGradeSchema)
    throw std::runtime_error("not a " + std::string(kGradeSchema) + " file");
  g.assignment = j.value("assignment", "");
  g.assignment_title = j.value("assignment_title", "");
  g.submission = j.value("submission", "");
  g.file = j.value("file", "");
  g.fingerprint = j.value("fingerprint", "");
  g.seed = j.value("seed", uint64_t{0});
  g.points = j.value("points", 0.0);
  g.max_points = j.value("max_points", 0.0);
  g.review = j.value("review", false);
  g.items = j.value("items", std::vector<ItemGrade>{});
  g.other_findings = j.value("other_findings", std::vector<Evidence>{});
  g.runs = j.value("devices", std::vector<DeviceRun>{});
  g.seconds = j.value("seconds", 0.0);
  g.graded_at = j.value("graded_at", "");
  g.interface_differences = j.value("interface_differences", std::vector<std::string>{});
  g.unassessed = j.value("unassessed", std::vector<std::string>{});
  g.sandbox = j.value("sandbox", "");
}

}  // namespace clh::grade
