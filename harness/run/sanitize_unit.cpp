// A spec's sanitized unit in child processes (run/sanitize_unit.hpp).
#include "run/sanitize_unit.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "cl/compile_watch.hpp"
#include "cl/unit.hpp"
#include "core/sizes.hpp"
#include "run/units.hpp"
#include "sanitize/cases.hpp"
#include "sanitize/run.hpp"

namespace fs = std::filesystem;

namespace clh {

const char* whyNotSanitized(const DeviceInfo& dev, const UnitResult& cases) {
  if (dev.simulator) return "not sanitized: the simulator checks every access itself";
  const bool unbuilt =
      cases.failing &&
      std::any_of(cases.failing->findings.begin(), cases.failing->findings.end(),
                  [](const Finding& f) { return f.kind == FindingKind::build_error; });
  return unbuilt ? "not sanitized: the kernel does not build (see its cases)" : nullptr;
}

namespace {

// A unit the plan could not be made for: clharness's failure.
UnitResult planFailed(const Spec& spec, const DeviceInfo& dev, const CheckOptions& o,
                      const std::string& why) {
  UnitResult u = unitFor(spec, dev, o.seed, "sanitize");
  Finding f;
  f.kind = FindingKind::tool_error;
  f.summary = "the sanitizer could not plan this unit (clharness's failure): " + why;
  f.device = u.device;
  u.failing = CaseOutcome{};
  u.failing->findings.push_back(f);
  u.status = Status::tool_error;
  u.message = f.summary;
  return u;
}

// A unit whose process was lost: its findings as the sanitizer's family says them. The
// instrumented program is clharness's: a compiler that dies on it is not the kernel's.
void asSanitizedUnit(UnitResult& u, const sanitize::SanitizePlan& plan) {
  u.family = "sanitize";
  if (u.failing)
    for (auto& f : u.failing->findings)
      if (f.kind == FindingKind::build_error) {
        f.kind = FindingKind::tool_error;
        f.summary =
            "the driver's compiler died on the sanitizer's instrumented program "
            "(clharness's failure, not the kernel's): " +
            f.summary;
        u.status = Status::tool_error;
      }
  if (!u.replay.empty()) u.replay += " --sanitize";
  if (u.observations.empty() || u.observations.front().rfind("sanitized on ", 0) != 0)
    u.observations.insert(
        u.observations.begin(),
        fmt::format("sanitized on {} at {} size(s) of the spec's full ranges "
                    "({}); the process ended before it said more",
                    u.device, plan.sizes.size(), sanitize::sizesList(plan.sizes)));
}

// The same case as a lost sanitized one, run plain (not instrumented) in a process of its own.
UnitResult plainRerun(const ToolConfig& config, const Spec& spec, const DeviceInfo& dev,
                      const CheckOptions& o, const Sizes& sizes, const fs::path& scratch) {
  CheckOptions plain = o;
  plain.sanitize_plan.clear();
  plain.sizes = formatSizes(sizes);
  plain.cases = 1;
  plain.shrink = false;
  return runUnitIsolated(config, spec, dev, plain, scratch);
}

bool crashedOrHung(const Finding& f) {
  return f.kind == FindingKind::crash || f.kind == FindingKind::timeout;
}

// The OpenCL error an instrumented launch that failed as it ran ended with ("CL_OUT_OF_RESOURCES"),
// or "" for any other finding.
std::string failedRunError(const Finding& f) {
  if (f.kind != FindingKind::tool_error ||
      f.summary.rfind(sanitize::kInstrumentedDidNotRun, 0) != 0)
    return "";
  const size_t open = f.summary.rfind("(CL_");
  const size_t close = f.summary.find(')', open);
  return open == std::string::npos || close == std::string::npos
             ? ""
             : f.summary.substr(open + 1, close - open - 1);
}

// The plain run's finding that shows the same failure: a crash or hang where the sanitized case
// was lost, the same OpenCL error where the instrumented launch failed as it ran.
const Finding* sameFailure(const Finding& sanitized, const UnitResult* plain) {
  if (!plain || !plain->failing) return nullptr;
  const std::string error = failedRunError(sanitized);
  for (const auto& p : plain->failing->findings)
    if (crashedOrHung(p) || (!error.empty() && p.kind == FindingKind::launch_error &&
                             p.summary.find(error) != std::string::npos))
      return &p;
  return nullptr;
}

std::string failureWord(FindingKind k) {
  return k == FindingKind::crash ? "crash" : k == FindingKind::timeout ? "hang" : "launch failure";
}

}  // namespace

bool lostSanitizedCase(const UnitResult& u) {
  if (!u.failing || u.failing->findings.empty()) return false;
  const Finding& f = u.failing->findings.front();
  return crashedOrHung(f) || !failedRunError(f).empty() ||
         (f.kind == FindingKind::tool_error && isLaunchCompileCrash(f.summary));
}

void chargeLostSanitizedCase(UnitResult& u, const UnitResult* plain) {
  Finding& f = u.failing->findings.front();
  const Finding* again = sameFailure(f, plain);
  const std::string where = u.failing->sizes.empty() ? std::string("before any case ran")
                                                     : "at " + formatSizes(u.failing->sizes);
  if (again) {
    f.kind = again->kind;
    f.summary = fmt::format(
        "{} {}, and so did the same case run plain (not instrumented, same seed) in a process of "
        "its own ({}): the kernel's own {}, not the sanitizer's",
        f.summary, where, again->summary, failureWord(again->kind));
    if (!again->raw.empty()) f.raw += "\nthe plain run's:\n" + again->raw;
    u.status = classify(*u.failing, u.expected);
    u.message = "the kernel failed the same way without the sanitizer";
    return;
  }
  const std::string plainSaid =
      !plain ? std::string("no plain run: no case had started")
             : fmt::format("the same case run plain did not ({})", toString(plain->status));
  f.summary = fmt::format(
      "the sanitized run died, hung or failed {} ({}), and {}: the instrumented program's failure "
      "(clharness's), not the kernel's",
      where, f.summary, plainSaid);
  f.kind = FindingKind::tool_error;
  u.status = Status::tool_error;
  u.message = "the sanitizer could not run this kernel (clharness's failure, not the kernel's)";
}

UnitResult runSanitizedUnitIsolated(const ToolConfig& config, const Spec& spec,
                                    const DeviceInfo& dev, const CheckOptions& o,
                                    const fs::path& scratch) {
  sanitize::SanitizePlan plan;
  const fs::path path = scratch / fmt::format("sanitize-{}-{}.json", dev.slug(), spec.name);
  try {
    std::optional<Sizes> only;
    if (o.sizes) only = parseSizes(*o.sizes);
    plan = sanitize::planSanitizedUnit(spec, dev, o.seed, only, spec.source_path);
    sanitize::writePlan(plan, path.string());
  } catch (const std::exception& e) {
    return planFailed(spec, dev, o, e.what());
  }
  CheckOptions so = o;
  so.sanitize_plan = path.string();
  UnitResult u = runUnitIsolated(config, spec, dev, so, scratch);
  if (lostSanitizedCase(u)) {
    std::optional<UnitResult> plain;
    if (u.cases_run > 0) plain = plainRerun(config, spec, dev, o, u.failing->sizes, scratch);
    chargeLostSanitizedCase(u, plain ? &*plain : nullptr);
  }
  asSanitizedUnit(u, plan);
  if (u.failing && u.replay.empty())
    u.replay = replayCommand(config.tool_name, spec.file, u.device, o.seed, u.failing->sizes) +
               " --sanitize";
  std::error_code ec;
  fs::remove(path, ec);
  return u;
}

}  // namespace clh
