// Building the driver section: rows and launch failures as findings, marked against a baseline.
#include "drivers/section.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "drivers/matrix.hpp"
#include "launch/spec_shapes.hpp"

namespace clh::drivers {

DriverVerdict driverVerdictOf(const drivers::CheckResult& r) {
  switch (r.verdict) {
    case drivers::Verdict::conforms:
      return DriverVerdict::conforms;
    case drivers::Verdict::observed:
      return DriverVerdict::observed;
    case drivers::Verdict::skipped:
      return DriverVerdict::skipped;
    case drivers::Verdict::deviates:
      break;
  }
  if (r.got.rfind("the process killed by", 0) == 0) return DriverVerdict::crashed;
  if (r.got.rfind("the process hung", 0) == 0) return DriverVerdict::hung;
  return DriverVerdict::deviates;
}

DriverFinding rowFinding(const drivers::CheckResult& r, const std::string& replay) {
  DriverFinding f;
  f.check = r.id;
  f.title = r.title;
  f.verdict = driverVerdictOf(r);
  f.got = r.verdict == drivers::Verdict::observed ? r.observed : r.got;
  f.allowed = r.required.empty() ? r.rule : r.required;
  f.detail = r.detail;
  if (f.verdict != DriverVerdict::skipped && f.verdict != DriverVerdict::observed)
    f.replay = replay;
  return f;
}

std::string failureId(const launch::KnownDeviation& k) {
  return fmt::format("shape.{} {} -> {}{}", k.kind, k.rule, k.got,
                     k.results.empty() ? "" : ", results: " + k.results);
}

bool sameOutcome(const drivers::CheckResult& a, const drivers::CheckResult& b) {
  auto died = [](const drivers::CheckResult& r) {
    return r.got.rfind("the process killed by", 0) == 0 || r.got.rfind("the process hung", 0) == 0;
  };
  return a.verdict == b.verdict && (a.got == b.got || (died(a) && died(b))) &&
         a.required == b.required && a.observed == b.observed;
}

namespace {

DriverVerdict launchVerdict(const launch::KnownDeviation& k) {
  if (k.got == "crash") return DriverVerdict::crashed;
  if (k.got == "timeout") return DriverVerdict::hung;
  return DriverVerdict::deviates;
}

struct Group {
  launch::KnownDeviation key;
  const launch::LaunchFamilyResult* first_family = nullptr;
  const launch::ShapeCheck* first = nullptr;
  int shapes = 0;
  std::set<std::string> specs;
};

std::vector<Group> groups(const SectionInput& in) {
  std::vector<Group> out;
  for (const auto* fam : in.families)
    for (auto& [key, shape] : driverFailures(*fam)) {
      const auto& k = key;  // clang 15 captures no structured binding
      auto it =
          std::find_if(out.begin(), out.end(), [&](const Group& g) { return g.key.sameKey(k); });
      if (it == out.end()) {
        out.push_back({key, fam, shape, 0, {}});
        it = out.end() - 1;
      }
      ++it->shapes;
      it->specs.insert(fam->spec);
    }
  return out;
}

// Build variants the device's newest -cl-std did not build (notes of the family): observed, not
// charged, since a kernel can be valid OpenCL C 1.2 and not 3.0.
std::map<std::string, std::string> variantNotes(const SectionInput& in) {
  std::map<std::string, std::string> out;
  for (const auto* fam : in.families)
    for (const auto& n : fam->notes) {
      const std::string prefix = "build variant '";
      if (n.rfind(prefix, 0) != 0) continue;
      const auto end = n.find('\'', prefix.size());
      if (end == std::string::npos) continue;
      const std::string name = n.substr(prefix.size(), end - prefix.size());
      if (!out.count(name)) out[name] = fam->spec + ": " + n;
    }
  return out;
}

}  // namespace

std::vector<std::pair<launch::KnownDeviation, const launch::ShapeCheck*>> driverFailures(
    const launch::LaunchFamilyResult& family) {
  std::vector<std::pair<launch::KnownDeviation, const launch::ShapeCheck*>> out;
  for (const auto& c : family.shapes) {
    if (!launch::chargedToDriver(c)) continue;
    for (auto& key : launch::failureKeys(c)) out.emplace_back(std::move(key), &c);
  }
  return out;
}

namespace {

// How a row stands against the baseline's changes (none: no baseline, a fresh row).
BaselineMark rowMark(const std::map<std::string, drivers::Change>& changes, bool has_baseline,
                     DriverFinding& f) {
  if (!has_baseline) return BaselineMark::fresh;  // nothing records it: new, unrecorded
  auto it = changes.find(f.check);
  if (it == changes.end()) return BaselineMark::known;
  f.before = it->second.before;
  if (it->second.kind == drivers::Change::Kind::fix) return BaselineMark::fix;
  if (it->second.kind == drivers::Change::Kind::added) return BaselineMark::fresh;
  return BaselineMark::regression;
}

// The driver checks' rows, compared as `clharness semantics --baseline` compares them.
void addCheckRows(DriverReport& d, const SectionInput& in, const Baseline* baseline) {
  const DeviceInfo& dev = *in.device;
  std::map<std::string, drivers::Change> changes;
  if (baseline) {
    drivers::DeviceColumn now{dev.slug(), d.device, dev.version, dev.driver_version, in.rows};
    drivers::DeviceColumn was{dev.slug(), d.device, "", baseline->match.driver_version,
                              baseline->checks};
    for (auto& c : drivers::compareWithBaseline(now, was)) changes[c.check] = c;
  }
  for (const auto& r : in.rows) {
    DriverFinding f = rowFinding(r, in.rows_replay);
    f.mark = rowMark(changes, baseline != nullptr, f);
    // A check that could not run here is listed with its reason; new, it regresses nothing.
    if (f.verdict == DriverVerdict::skipped && f.mark == BaselineMark::fresh)
      f.mark = BaselineMark::none;
    const bool listed = f.verdict != DriverVerdict::conforms ||
                        (f.mark != BaselineMark::none && f.mark != BaselineMark::known &&
                         f.mark != BaselineMark::fresh);
    if (f.verdict == DriverVerdict::conforms) {
      ++d.conforming;
      d.conforming_checks.push_back(f.check);
    }
    if (listed) d.findings.push_back(std::move(f));
  }
  if (baseline && !in.rows.empty())
    for (const auto& [id, c] : changes)
      if (c.kind == drivers::Change::Kind::removed) {
        DriverFinding f;
        f.check = id;
        f.verdict = DriverVerdict::skipped;
        f.mark = BaselineMark::missing;
        f.before = c.before;
        f.detail = "the baseline has this check; this run did not";
        d.findings.push_back(std::move(f));
      }
}

// The launch families' failures that are the driver's, one finding per failure key; returns
// which of the baseline's launch entries they covered.
std::vector<bool> addLaunchFailures(DriverReport& d, const SectionInput& in,
                                    const Baseline* baseline) {
  std::vector<bool> seen(baseline ? baseline->launch.size() : 0, false);
  for (const auto& g : groups(in)) {
    DriverFinding f;
    f.check = failureId(g.key);
    f.title = "launch shapes of the family " + g.key.kind;
    f.verdict = launchVerdict(g.key);
    f.got = g.key.got + (g.key.results.empty() ? "" : ", then results: " + g.key.results);
    f.allowed = g.first->prediction.allowedToString();
    f.detail = fmt::format("{} shape(s) in {} spec(s); first: {} {}", g.shapes, g.specs.size(),
                           g.first_family->spec, g.first->toString());
    if (in.replay) f.replay = in.replay(*g.first_family, g.first->index);
    f.mark = BaselineMark::fresh;
    if (baseline) {
      for (size_t i = 0; i < baseline->launch.size(); ++i)
        if (baseline->launch[i].covers(g.key)) {
          f.mark = BaselineMark::known;
          seen[i] = true;
        }
    }
    d.findings.push_back(std::move(f));
  }
  return seen;
}

// The baseline's launch entries this run did not see, among the families `check` draws.
void addMissingLaunchEntries(DriverReport& d, const Baseline* baseline,
                             const std::vector<bool>& seen) {
  for (size_t i = 0; i < seen.size(); ++i) {
    if (seen[i]) continue;
    const auto& e = baseline->launch[i];
    // An entry of a family that `check` never draws per spec (a driver probe recorded by
    // `clharness launch --kind ...`) cannot be seen here: not missing.
    if (!e.kind.empty() && !launch::isKernelFamily(e.kind)) continue;
    DriverFinding f;
    f.check = failureId(e);
    f.verdict = launchVerdict(e);
    f.got = e.got;
    f.allowed = e.allowed;
    f.mark = BaselineMark::missing;
    f.before = e.reason;
    f.detail = "recorded in the baseline, not seen in this run (another spec set, or a fix)";
    d.findings.push_back(std::move(f));
  }
}

}  // namespace

DriverReport buildDriverReport(const SectionInput& in, const Baseline* baseline,
                               const std::string& baseline_note) {
  const DeviceInfo& dev = *in.device;
  DriverReport d;
  d.device = dev.displayName();
  d.platform = dev.platform;
  d.driver_version = dev.driver_version;
  d.device_type = toString(dev.kind);
  d.baseline = baseline ? baseline->file : "";
  d.baseline_note = baseline_note;
  d.notes = in.notes;
  addCheckRows(d, in, baseline);
  addMissingLaunchEntries(d, baseline, addLaunchFailures(d, in, baseline));
  for (const auto& [name, note] : variantNotes(in)) {
    DriverFinding f;
    f.check = "build.variant." + name;
    f.title = "the spec's program built with the device's newest -cl-std";
    f.verdict = DriverVerdict::observed;
    f.got = "did not build";
    f.detail = "first: " + note;
    d.findings.push_back(std::move(f));
  }
  return d;
}

Baseline recordBaseline(const SectionInput& in, const Baseline* keep, bool per_model) {
  Baseline b;
  b.match = matchFor(*in.device, per_model);
  b.recorded_on = in.device->displayName();
  b.checks = in.rows;
  for (const auto& g : groups(in)) {
    launch::KnownDeviation e = g.key;
    e.reason = "first seen: " + g.first_family->spec + " " + g.first->toString();
    if (keep)
      for (const auto& k : keep->launch)
        if (k.sameKey(e) && !k.reason.empty()) e.reason = k.reason;
    b.launch.push_back(std::move(e));
  }
  return b;
}

}  // namespace clh::drivers
