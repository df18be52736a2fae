// The launch family's verdicts (launch/run.hpp): its failures counted, the command that replays a
// shape, and the family as a `clharness check` unit, the kernel's verdict.
#include <fmt/format.h>

#include <algorithm>

#include "cl/unit.hpp"
#include "core/shell.hpp"
#include "core/sizes.hpp"
#include "launch/run.hpp"

namespace clh {

using launch::LaunchFamilyResult;
using launch::ShapeCheck;

int newFailures(const LaunchFamilyResult& r, const launch::KnownDeviations& known) {
  int n = 0;
  for (const auto& c : r.shapes) n += !known.uncovered(c).empty();
  return n;
}

int failingShapes(const LaunchFamilyResult& r) {
  int n = 0;
  for (const auto& c : r.shapes) n += !launch::failureKeys(c).empty();
  return n;
}

bool unexpectedFailure(const FamilyRun& run) {
  if (!run.result.failure) return false;
  const auto expected = expectedFindings(*run.spec, *run.device);
  return std::find(expected.begin(), expected.end(), run.result.failure->kind) == expected.end();
}

std::string launchReplay(const std::string& tool, const FamilyRun& run, int shape) {
  return fmt::format(
      "{} launch {} --device {} --seed {} --shape {}", tool, shellQuote(run.spec->file),
      shellQuote(exactDeviceRegex(run.device->displayName())), run.result.seed, shape);
}

namespace {

// The children could not run the family: a driver that took them down while setting up (a
// compiler crash), or a child that could not start. Nothing is known of the kernel here.
void familyCouldNotRun(UnitResult& u, const FamilyRun& run) {
  Finding f;
  f.kind = FindingKind::tool_error;
  f.device = u.device;
  f.summary = fmt::format("{} failed while running the launch family, not the kernel: {}",
                          driverName(*run.device), run.error);
  CaseOutcome c;
  c.sizes = run.result.sizes;
  c.findings.push_back(std::move(f));
  u.failing = std::move(c);
  u.status = Status::tool_error;
  u.message = fmt::format("the launch family stopped after {} shape(s): {} ({})",
                          run.result.shapes.size(), run.error, driverName(*run.device));
}

// The family's summary line: how many shapes ran, were checked, and failed whose way.
std::string familySummary(const FamilyRun& run, int checked, int kernel_failures,
                          int driver_failures) {
  const LaunchFamilyResult& r = run.result;
  std::string families;
  for (const auto& k : r.kinds) families += (families.empty() ? "" : ", ") + k;
  std::string message = fmt::format(
      "{} launch shapes ({}) of the case {}: {} launches had their results checked; {} shape(s) "
      "failed in a way that is the kernel's; {} shape(s) got a driver answer the specification "
      "does not allow (the driver section lists them){}{}{}",
      r.shapes.size(), families, formatSizes(r.sizes), checked, kernel_failures, driver_failures,
      r.specExpected()
          ? fmt::format("; {} failed as the spec expects of its kernel", r.specExpected())
          : "",
      run.restarts ? fmt::format("; {} child process(es) died and were replaced", run.restarts)
                   : "",
      run.fresh_starts
          ? fmt::format("; {} shape(s) whose command failed were followed by a new process (a "
                        "context the failure may have spoilt)",
                        run.fresh_starts)
          : "");
  for (const auto& note : r.notes) message += "; " + note;
  return message;
}

// One finding per kind of kernel failure, on its first shape; the unit replays the first.
void chargeKernelFailures(UnitResult& u, const ToolConfig& config, const FamilyRun& run) {
  const LaunchFamilyResult& r = run.result;
  CaseOutcome c;
  c.sizes = r.sizes;
  const launch::KnownDeviations none;
  for (const auto& g : launch::groupFailures(r, none)) {
    const ShapeCheck& s = *g.shapes.front();
    if (launch::chargedToDriver(s)) continue;
    const std::string where =
        fmt::format("{} shape(s) like #{} {}", g.shapes.size(), s.index, s.text);
    if (g.key.results.empty()) {
      Finding f;
      f.kind = s.died.empty()        ? FindingKind::launch_error
               : s.died == "timeout" ? FindingKind::timeout
                                     : FindingKind::crash;
      f.device = u.device;
      f.kernel = run.spec->launches.at(0).kernel;
      f.summary = fmt::format("{}: a launch that must run got {}", where, s.gotText());
      c.findings.push_back(std::move(f));
    } else {
      for (const auto& rf : s.result_findings) {
        Finding g2 = rf;
        g2.summary = fmt::format("{} (got {}): {}", where, s.gotText(), g2.summary);
        c.findings.push_back(std::move(g2));
      }
    }
    if (u.replay.empty()) u.replay = launchReplay(config.tool_name, run, s.index);
  }
  u.failing = std::move(c);
  u.status = Status::fail;
}

}  // namespace

UnitResult launchUnit(const ToolConfig& config, const FamilyRun& run, uint64_t seed) {
  const LaunchFamilyResult& r = run.result;
  UnitResult u = unitFor(*run.spec, *run.device, seed, "launch");
  u.seconds = run.seconds;
  u.cases_run = static_cast<int>(r.shapes.size());
  if (!run.error.empty()) {
    familyCouldNotRun(u, run);
    return u;
  }
  if (r.failure) {
    u.status = Status::skipped;
    u.message = unexpectedFailure(run)
                    ? "no launch shape ran: " + r.failure->summary + " (the spec's cases report it)"
                    : "no launch shape ran: " + r.failure->summary + ", as the spec expects";
    return u;
  }
  // The kernel's verdict: the launches that must run, their results, and what the spec expects of
  // its kernel. What the driver answered to launches the specification forbids goes to the
  // driver section (launch::chargedToDriver), never here.
  int checked = 0, kernel_failures = 0, driver_failures = 0;
  for (const auto& c : r.shapes) {
    checked += c.results_checked;
    if (launch::failureKeys(c).empty()) continue;
    (launch::chargedToDriver(c) ? driver_failures : kernel_failures) += 1;
  }
  u.message = familySummary(run, checked, kernel_failures, driver_failures);
  if (kernel_failures == 0)
    u.status = Status::pass;
  else
    chargeKernelFailures(u, config, run);
  return u;
}

}  // namespace clh
