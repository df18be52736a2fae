// A sanitized unit: a spec's kernel instrumented by the sanitizer and run at a few sizes of its
// full ranges on one real device, as a unit of family "sanitize" (`SPEC [sanitize]`). Its plan
// (the sizes, and the rewrite of the kernel once per build options) is made by the parent, which
// may run the rewriting helper; the cases run in a child process (run/ and grade/ start it).
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cl/session.hpp"
#include "core/result.hpp"
#include "core/spec.hpp"
#include "sanitize/rewrite.hpp"

namespace clh::sanitize {

/// The kernel rewritten for one build options' value.
struct PlannedRewrite {
  std::string build_options;
  Instrumented inst;
};

/// What a sanitized unit runs: its sizes, what was left out of them, and the rewrites.
struct SanitizePlan {
  std::string source_path;  ///< the kernel file rewritten (and named in findings)
  std::string kernel;       ///< the kernel of the spec's first launch
  std::vector<Sizes> sizes;
  std::vector<std::string> notes;  ///< sizes left out (memory, domain), said in the unit
  std::vector<PlannedRewrite> rewrites;
};

/// The plan for `spec` on `dev`: `only` (a replay) or the sizes chooseSanitizedSizes gives, and
/// the kernel of `source_path` (the spec's own, or a submission) rewritten for each build options
/// they give, through the rewriting helper.
SanitizePlan planSanitizedUnit(const Spec& spec, const DeviceInfo& dev, uint64_t seed,
                               const std::optional<Sizes>& only, const std::string& source_path);

/// The unit: the plan's rewrites given to instrumentInHelper (no helper runs here), then each
/// size run sanitized on the session's device (runSanitized on concreteSpec), `on_case_start`
/// called before each. It stops at the first case with findings. Findings are the kernel's
/// (out_of_bounds, race, uninitialized) or clharness's (tool_error: a rewrite or build of the
/// instrumented program that failed); its observations say the device, the sizes, the accesses
/// checked and what was not looked at.
UnitResult runSanitizedUnit(DeviceSession& session, const Spec& spec, const SanitizePlan& plan,
                            uint64_t seed, const std::function<void(const Sizes&)>& on_case_start);

/// The sizes of a plan as a report says them: "N=128; N=17; N=3".
std::string sizesList(const std::vector<Sizes>& sizes);

void to_json(nlohmann::json& j, const SanitizePlan& p);
void from_json(const nlohmann::json& j, SanitizePlan& p);

/// Writes the plan to `path` (JSON); throws std::runtime_error when it cannot.
void writePlan(const SanitizePlan& plan, const std::string& path);
/// Reads what writePlan wrote; throws std::runtime_error when it cannot.
SanitizePlan readPlan(const std::string& path);

}  // namespace clh::sanitize
