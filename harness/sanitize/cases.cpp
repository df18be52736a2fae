// A sanitized unit: its plan (parent) and its cases (child) (sanitize/cases.hpp).
#include "sanitize/cases.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <stdexcept>

#include "cl/unit.hpp"
#include "core/expr.hpp"
#include "core/sizes.hpp"
#include "sanitize/case_sizes.hpp"
#include "sanitize/helper.hpp"
#include "sanitize/json.hpp"
#include "sanitize/run.hpp"

namespace clh::sanitize {

std::string sizesList(const std::vector<Sizes>& sizes) {
  std::string out;
  for (const auto& s : sizes)
    out += (out.empty() ? "" : "; ") + (s.empty() ? std::string("(no sizes)") : formatSizes(s));
  return out;
}

SanitizePlan planSanitizedUnit(const Spec& spec, const DeviceInfo& dev, uint64_t seed,
                               const std::optional<Sizes>& only, const std::string& source_path) {
  SanitizePlan plan;
  plan.source_path = source_path;
  plan.kernel = spec.launches.at(0).kernel;
  if (only) {
    Sizes s = *only;
    ExprEnv env(paramNames(spec));
    completeDerived(spec, env, s);
    plan.sizes.push_back(s);
  } else {
    ChosenSizes chosen = chooseSanitizedSizes(spec, dev, seed);
    plan.sizes = std::move(chosen.sizes);
    plan.notes = std::move(chosen.notes);
  }
  for (const Sizes& s : plan.sizes) {
    const std::string options = concreteSpec(spec, s).build_options;
    if (std::any_of(plan.rewrites.begin(), plan.rewrites.end(),
                    [&](const PlannedRewrite& r) { return r.build_options == options; }))
      continue;
    plan.rewrites.push_back(
        {options, instrumentInHelper(source_path, source_path, plan.kernel, options)});
  }
  return plan;
}

namespace {

Finding unitToolError(const std::string& summary) {
  Finding f;
  f.kind = FindingKind::tool_error;
  f.summary = summary;
  return f;
}

// A note that says the size of a shadow: the first case's is enough.
bool isShadowSize(const std::string& note) {
  return note.rfind("sanitizer: __", 0) == 0 && note.find(" shadow of ") != std::string::npos;
}

// What the first case says of what was looked at, and every case's notes (a shadow's size once),
// each once.
void observe(UnitResult& u, const SanitizeOutcome& s, const std::string& device,
             const SanitizePlan& plan) {
  auto add = [&u](std::string o) {
    if (std::find(u.observations.begin(), u.observations.end(), o) == u.observations.end())
      u.observations.push_back(std::move(o));
  };
  add(fmt::format(
      "sanitized on {} at {} size(s) of the spec's full ranges ({}): {} access{} to __global and "
      "__local memory checked ({}), {} not looked at",
      device, plan.sizes.size(), sizesList(plan.sizes), s.sites, s.sites == 1 ? "" : "es",
      kLookedAt, s.unchecked.size()));
  for (const auto& n : plan.notes) add("sanitizer: " + n);
  for (const auto& x : s.unchecked)
    add(fmt::format("sanitizer: not looked at: line {}: {}: {}", x.line, x.what, x.why));
  for (const auto& n : s.notes)
    if (u.cases_run == 1 || !isShadowSize(n)) add(n);
}

Status statusOf(const CaseOutcome& c, const std::vector<FindingKind>& expected) {
  if (c.findings.empty()) return Status::pass;  // the sanitizer does not look for every kind
  return classify(c, expected);
}

}  // namespace

UnitResult runSanitizedUnit(DeviceSession& session, const Spec& spec, const SanitizePlan& plan,
                            uint64_t seed, const std::function<void(const Sizes&)>& on_case_start) {
  const auto start = std::chrono::steady_clock::now();
  UnitResult u = unitFor(spec, session.device(), seed, "sanitize");
  u.expected = expectedFindings(spec, session.device());
  for (const auto& r : plan.rewrites)
    rememberInstrumented(plan.source_path, plan.source_path, plan.kernel, r.build_options, r.inst);
  for (const Sizes& sizes : plan.sizes) {
    if (on_case_start) on_case_start(sizes);
    SanitizeOutcome s;
    try {
      s = runSanitized(session, concreteSpec(spec, sizes), plan.source_path, plan.source_path,
                       seed);
    } catch (const std::exception& e) {  // a spec the sanitized run cannot evaluate
      s.findings.push_back(
          unitToolError(std::string("the sanitized run could not start: ") + e.what()));
    }
    ++u.cases_run;
    observe(u, s, session.device().displayName(), plan);
    if (s.findings.empty()) continue;
    for (auto& f : s.findings)
      if (f.device.empty()) f.device = u.device;
    CaseOutcome c;
    c.sizes = sizes;
    c.findings = std::move(s.findings);
    u.failing = std::move(c);
    if (u.cases_run < static_cast<int>(plan.sizes.size()))
      u.observations.push_back(fmt::format(
          "sanitizer: stopped at the first case with a finding ({} of the {} sizes ran)",
          u.cases_run, plan.sizes.size()));
    break;
  }
  if (plan.sizes.empty()) {
    u.status = Status::skipped;
    u.message = "no size of the spec's full ranges could be run sanitized";
    for (const auto& n : plan.notes) u.observations.push_back("sanitizer: " + n);
  } else {
    u.status = u.failing ? statusOf(*u.failing, u.expected) : Status::pass;
    if (u.status == Status::tool_error)
      u.message = "the sanitizer could not run this kernel (clharness's failure, not the kernel's)";
  }
  u.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return u;
}

void to_json(nlohmann::json& j, const SanitizePlan& p) {
  nlohmann::json rewrites = nlohmann::json::array();
  for (const auto& r : p.rewrites)
    rewrites.push_back({{"build_options", r.build_options}, {"instrumented", r.inst}});
  j = {{"source_path", p.source_path},
       {"kernel", p.kernel},
       {"sizes", p.sizes},
       {"notes", p.notes},
       {"rewrites", rewrites}};
}

void from_json(const nlohmann::json& j, SanitizePlan& p) {
  p.source_path = j.at("source_path").get<std::string>();
  p.kernel = j.at("kernel").get<std::string>();
  p.sizes = j.at("sizes").get<std::vector<Sizes>>();
  p.notes = j.at("notes").get<std::vector<std::string>>();
  p.rewrites.clear();
  for (const auto& r : j.at("rewrites"))
    p.rewrites.push_back(
        {r.at("build_options").get<std::string>(), r.at("instrumented").get<Instrumented>()});
}

void writePlan(const SanitizePlan& plan, const std::string& path) {
  std::ofstream out(path);
  out << nlohmann::json(plan).dump() << "\n";
  if (!out) throw std::runtime_error("cannot write the sanitizer's plan " + path);
}

SanitizePlan readPlan(const std::string& path) {
  std::ifstream in(path);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded()) throw std::runtime_error("cannot read the sanitizer's plan " + path);
  return j.get<SanitizePlan>();
}

}  // namespace clh::sanitize
