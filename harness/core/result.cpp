// JSON forms of the result values (docs/report.md is the schema).
#include "core/result.hpp"

#include "core/enum_words.hpp"

namespace clh {

using nlohmann::json;

namespace {
constexpr EnumWord<Status> kStatusWords[] = {
    {Status::pass, "pass"},
    {Status::fail, "fail"},
    {Status::expected_failure, "expected_failure"},
    {Status::unexpected_pass, "unexpected_pass"},
    {Status::tool_error, "tool_error"},
    {Status::skipped, "skipped"},
    {Status::not_reproduced, "not_reproduced"},
};
constexpr EnumWord<DriverVerdict> kDriverVerdictWords[] = {
    {DriverVerdict::conforms, "conforms"}, {DriverVerdict::deviates, "deviates"},
    {DriverVerdict::crashed, "crashed"},   {DriverVerdict::hung, "hung"},
    {DriverVerdict::observed, "observed"}, {DriverVerdict::skipped, "skipped"},
};
constexpr EnumWord<BaselineMark> kBaselineMarkWords[] = {
    {BaselineMark::none, ""},       {BaselineMark::known, "known"},
    {BaselineMark::fresh, "new"},   {BaselineMark::regression, "regression"},
    {BaselineMark::fix, "fix"},     {BaselineMark::missing, "missing"},
    {BaselineMark::flaky, "flaky"},
};
}  // namespace

std::string_view toString(Status s) {
  return wordOf(kStatusWords, s, "fail");
}

std::optional<Status> statusFromString(std::string_view s) {
  return valueOf(kStatusWords, s);
}

bool isSuccess(Status s) {
  return s != Status::fail && s != Status::unexpected_pass;
}

void to_json(json& j, const Mismatch& m) {
  j = {{"buffer", m.buffer},
       {"index", m.index},
       {"got", m.got},
       {"want", m.want},
       {"unwritten", m.unwritten}};
}
void from_json(const json& j, Mismatch& m) {
  m.buffer = j.value("buffer", "");
  m.index = j.value("index", std::vector<int64_t>{});
  m.got = j.value("got", "");
  m.want = j.value("want", "");
  m.unwritten = j.value("unwritten", false);
}
void to_json(json& j, const SourceLine& l) {
  j = {{"file", l.file}, {"line", l.line}, {"text", l.text}};
}
void from_json(const json& j, SourceLine& l) {
  l.file = j.value("file", "");
  l.line = j.value("line", 0);
  l.text = j.value("text", "");
}

void to_json(json& j, const Finding& f) {
  j = {{"kind", toString(f.kind)}, {"summary", f.summary}};
  if (!f.device.empty()) j["device"] = f.device;
  if (!f.kernel.empty()) j["kernel"] = f.kernel;
  if (!f.address_space.empty()) j["address_space"] = f.address_space;
  if (!f.lines.empty()) j["lines"] = f.lines;
  if (!f.work_items.empty()) j["work_items"] = f.work_items;
  if (!f.mismatches.empty()) j["mismatches"] = f.mismatches;
  if (f.mismatch_count) j["mismatch_count"] = f.mismatch_count;
  if (!f.raw.empty()) j["raw"] = f.raw;
}
void from_json(const json& j, Finding& f) {
  f.kind = findingKindFromString(j.value("kind", "other")).value_or(FindingKind::other);
  f.summary = j.value("summary", "");
  f.device = j.value("device", "");
  f.kernel = j.value("kernel", "");
  f.address_space = j.value("address_space", "");
  f.lines = j.value("lines", std::vector<SourceLine>{});
  f.work_items = j.value("work_items", std::vector<std::string>{});
  f.mismatches = j.value("mismatches", std::vector<Mismatch>{});
  f.mismatch_count = j.value("mismatch_count", int64_t{0});
  f.raw = j.value("raw", "");
}

void to_json(json& j, const CaseOutcome& c) {
  j = {{"sizes", c.sizes},
       {"findings", c.findings},
       {"kernel_ns", c.kernel_ns},
       {"queued_to_end_ns", c.queued_to_end_ns}};
  if (c.flops) j["flops"] = *c.flops;
  if (!c.observations.empty()) j["observations"] = c.observations;
  if (c.bytes) j["bytes"] = *c.bytes;
}
void from_json(const json& j, CaseOutcome& c) {
  c.sizes = j.value("sizes", Sizes{});
  c.findings = j.value("findings", std::vector<Finding>{});
  c.kernel_ns = j.value("kernel_ns", 0.0);
  c.queued_to_end_ns = j.value("queued_to_end_ns", 0.0);
  c.observations = j.value("observations", std::vector<std::string>{});
  if (j.contains("flops")) c.flops = j["flops"].get<double>();
  if (j.contains("bytes")) c.bytes = j["bytes"].get<double>();
}

void to_json(json& j, const PerfSample& s) {
  j = {{"size", s.size}, {"kernel_ns", s.kernel_ns}, {"wall_ns", s.wall_ns}};
  if (s.flops) j["flops"] = *s.flops;
  if (s.bytes) j["bytes"] = *s.bytes;
}
void from_json(const json& j, PerfSample& s) {
  s.size = j.value("size", 0.0);
  s.kernel_ns = j.value("kernel_ns", 0.0);
  s.wall_ns = j.value("wall_ns", 0.0);
  s.flops = j.contains("flops") ? std::optional<double>(j["flops"].get<double>()) : std::nullopt;
  s.bytes = j.contains("bytes") ? std::optional<double>(j["bytes"].get<double>()) : std::nullopt;
}

std::string UnitResult::title() const {
  return family == "cases" ? spec : spec + " [" + family + "]";
}

void to_json(json& j, const UnitResult& u) {
  j = {{"family", u.family},           {"spec", u.spec},
       {"spec_file", u.spec_file},     {"device", u.device},
       {"device_kind", u.device_kind}, {"status", toString(u.status)},
       {"cases_run", u.cases_run},     {"seed", u.seed},
       {"message", u.message},         {"seconds", u.seconds}};
  json exp = json::array();
  for (auto k : u.expected) exp.push_back(toString(k));
  j["expected"] = exp;
  if (u.failing) j["failing_case"] = *u.failing;
  if (!u.observations.empty()) j["observations"] = u.observations;
  if (!u.replay.empty()) j["replay"] = u.replay;
  if (!u.tool_version.empty()) j["tool_version"] = u.tool_version;
  json perf = {{"cases", u.perf.cases}, {"kernel_ns", u.perf.kernel_ns}};
  if (u.perf.flops > 0) perf["flops"] = u.perf.flops, perf["gflops"] = u.perf.gflops();
  if (u.perf.bytes > 0) perf["bytes"] = u.perf.bytes, perf["gbytes_per_s"] = u.perf.gbytes();
  if (!u.perf_samples.empty()) perf["samples"] = u.perf_samples;
  j["perf"] = perf;
}
void from_json(const json& j, UnitResult& u) {
  u.family = j.value("family", "cases");
  u.spec = j.value("spec", "");
  u.spec_file = j.value("spec_file", "");
  u.device = j.value("device", "");
  u.device_kind = j.value("device_kind", "");
  u.status = statusFromString(j.value("status", "fail")).value_or(Status::fail);
  u.cases_run = j.value("cases_run", 0);
  u.seed = j.value("seed", uint64_t{0});
  u.message = j.value("message", "");
  u.seconds = j.value("seconds", 0.0);
  u.tool_version = j.value("tool_version", "");
  u.expected.clear();
  for (const auto& k : j.value("expected", std::vector<std::string>{}))
    if (auto kind = findingKindFromString(k)) u.expected.push_back(*kind);
  if (j.contains("failing_case")) u.failing = j["failing_case"].get<CaseOutcome>();
  u.replay = j.value("replay", "");
  u.observations = j.value("observations", std::vector<std::string>{});
  if (j.contains("perf")) {
    const auto& p = j["perf"];
    u.perf.cases = p.value("cases", 0);
    u.perf.kernel_ns = p.value("kernel_ns", 0.0);
    u.perf.flops = p.value("flops", 0.0);
    u.perf.bytes = p.value("bytes", 0.0);
    u.perf_samples = p.value("samples", std::vector<PerfSample>{});
  }
}

std::string_view toString(DriverVerdict v) {
  return wordOf(kDriverVerdictWords, v, "deviates");
}

std::optional<DriverVerdict> driverVerdictFromString(std::string_view s) {
  return valueOf(kDriverVerdictWords, s);
}

std::string_view toString(BaselineMark m) {
  return wordOf(kBaselineMarkWords, m, "");
}

std::optional<BaselineMark> baselineMarkFromString(std::string_view s) {
  return valueOf(kBaselineMarkWords, s);
}

bool failsRegression(BaselineMark m) {
  return m == BaselineMark::fresh || m == BaselineMark::regression;
}

bool reportPasses(const Report& r) {
  for (const auto& u : r.units)
    if (!isSuccess(u.status)) return false;
  if (r.regression_mode)
    for (const auto& d : r.drivers)
      for (const auto& f : d.findings)
        if (failsRegression(f.mark)) return false;
  return true;
}

void to_json(json& j, const DriverFinding& f) {
  j = {{"check", f.check}, {"verdict", toString(f.verdict)}};
  for (const auto& [key, value] : {std::pair{"title", &f.title},
                                   {"got", &f.got},
                                   {"allowed", &f.allowed},
                                   {"detail", &f.detail},
                                   {"replay", &f.replay},
                                   {"before", &f.before}})
    if (!value->empty()) j[key] = *value;
  if (f.mark != BaselineMark::none) j["baseline"] = toString(f.mark);
}
void from_json(const json& j, DriverFinding& f) {
  f.check = j.value("check", "");
  f.verdict =
      driverVerdictFromString(j.value("verdict", "deviates")).value_or(DriverVerdict::deviates);
  f.title = j.value("title", "");
  f.got = j.value("got", "");
  f.allowed = j.value("allowed", "");
  f.detail = j.value("detail", "");
  f.replay = j.value("replay", "");
  f.before = j.value("before", "");
  f.mark = baselineMarkFromString(j.value("baseline", "")).value_or(BaselineMark::none);
}
void to_json(json& j, const DriverReport& d) {
  j = {{"device", d.device},
       {"platform", d.platform},
       {"driver_version", d.driver_version},
       {"device_type", d.device_type},
       {"baseline", d.baseline},
       {"baseline_note", d.baseline_note},
       {"conforming", d.conforming},
       {"findings", d.findings}};
  if (!d.conforming_checks.empty()) j["conforming_checks"] = d.conforming_checks;
  if (!d.notes.empty()) j["notes"] = d.notes;
}
void from_json(const json& j, DriverReport& d) {
  d.device = j.value("device", "");
  d.platform = j.value("platform", "");
  d.driver_version = j.value("driver_version", "");
  d.device_type = j.value("device_type", "");
  d.baseline = j.value("baseline", "");
  d.baseline_note = j.value("baseline_note", "");
  d.conforming = j.value("conforming", 0);
  d.conforming_checks = j.value("conforming_checks", std::vector<std::string>{});
  d.findings = j.value("findings", std::vector<DriverFinding>{});
  d.notes = j.value("notes", std::vector<std::string>{});
}

void to_json(json& j, const Report& r) {
  json summary = json::object();
  for (const auto& u : r.units)
    summary[std::string(toString(u.status))] =
        summary.value(std::string(toString(u.status)), 0) + 1;
  j = {{"schema", "clharness-report/1"},
       {"tool_version", r.tool_version},
       {"seed", r.seed},
       {"devices", r.devices},
       {"summary", summary},
       {"units", r.units}};
  if (!r.drivers.empty() || r.regression_mode) {
    j["drivers"] = r.drivers;
    j["regression_mode"] = r.regression_mode;
  }
  if (!r.shard.empty()) j["shard"] = r.shard;
}

void from_json(const json& j, Report& r) {
  r.tool_version = j.value("tool_version", "");
  r.seed = j.value("seed", uint64_t{0});
  r.devices = j.value("devices", std::vector<std::string>{});
  r.units = j.at("units").get<std::vector<UnitResult>>();
  r.drivers = j.value("drivers", std::vector<DriverReport>{});
  r.regression_mode = j.value("regression_mode", false);
  r.shard = j.value("shard", "");
  r.interrupted_by = j.value("interrupted_by", "");
  r.units_planned = j.value("units_planned", size_t{0});
}

}  // namespace clh
