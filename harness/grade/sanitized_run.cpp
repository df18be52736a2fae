// The sanitizer in grading (grade/sanitized_run.hpp).
#include "grade/sanitized_run.hpp"

#include <filesystem>

#include "sanitize/cases.hpp"

namespace clh::grade {

bool worthSanitizing(const DeviceRun& plain) {
  if (plain.end != RunEnd::completed || !plain.unit) return false;
  if (!plain.unit->failing) return true;
  for (const auto& f : plain.unit->failing->findings)
    if (f.kind == FindingKind::build_error || f.kind == FindingKind::launch_error ||
        f.kind == FindingKind::timeout || f.kind == FindingKind::crash ||
        f.kind == FindingKind::tool_error)
      return false;
  return true;
}

std::string writeSanitizePlan(const Spec& spec, const DeviceInfo& dev, uint64_t seed,
                              const std::optional<Sizes>& only, const std::string& submission,
                              const std::string& dir) {
  const sanitize::SanitizePlan plan =
      sanitize::planSanitizedUnit(spec, dev, seed, only, submission);
  // A rewrite that failed stays in the plan: the child reports it, as the run's tool_error.
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string path = (std::filesystem::path(dir) / "sanitize.plan.json").string();
  sanitize::writePlan(plan, path);
  return path;
}

void excuseLostSanitizedRun(DeviceRun& run) {
  if (run.end == RunEnd::completed || run.end == RunEnd::tool_error) return;
  const std::string how = std::string(toString(run.end));
  run.end = RunEnd::tool_error;
  if (!run.lost) run.lost = CaseOutcome{};
  if (run.lost->findings.empty()) run.lost->findings.emplace_back();
  Finding& f = run.lost->findings.front();
  f.summary = "the sanitizer's run of your kernel ended early (" + how +
              (f.summary.empty() ? "" : ": " + f.summary) +
              "); the instrumented kernel is slower than yours, so this is the tool's limit, not "
              "your kernel's fault";
  f.kind = FindingKind::tool_error;
}

DeviceRun sanitizePlanFailed(const DeviceInfo& dev, const std::string& why) {
  DeviceRun run;
  run.device = dev.displayName();
  run.device_kind = std::string(toString(dev.kind));
  run.sanitized = true;
  run.end = RunEnd::tool_error;
  Finding f;
  f.kind = FindingKind::tool_error;
  f.summary = "the sanitizer could not plan its run (the tool's failure): " + why;
  run.lost = CaseOutcome{};
  run.lost->findings.push_back(f);
  return run;
}

}  // namespace clh::grade
