// The sanitizer in grading: a submission's kernel instrumented and run on a real device (a
// DeviceRun of its own, `sanitized`), which judges the "clean" item beside the simulator, or
// without it. Its plan is made in the grading parent (the rewriting helper cannot run in the
// sandbox); its run is a grading child's (job `__grade-one` with the plan).
#pragma once

#include <optional>
#include <string>

#include "cl/devices.hpp"
#include "grade/grade.hpp"

namespace clh::grade {

/// Whether a submission's plain run on a real device leaves the sanitizer something to judge:
/// it completed, and its kernel built, launched, ended and did not crash (else the "results"
/// or "build" item has already lost, and the instrumented kernel would fail the same way).
bool worthSanitizing(const DeviceRun& plain);

/// Writes the plan of `submission`'s sanitized run on `dev` into `dir` and returns its path
/// (sizes from the assignment spec's full ranges, or `only` for a replay). A plan that cannot be
/// made is clharness's failure: std::runtime_error.
std::string writeSanitizePlan(const Spec& spec, const DeviceInfo& dev, uint64_t seed,
                              const std::optional<Sizes>& only, const std::string& submission,
                              const std::string& dir);

/// A sanitized run that ended before its result (a time limit the instrumented kernel's cost may
/// explain, a crash with every out-of-bounds access diverted): it could not look, which is
/// clharness's limit, never the student's fault. Its end and finding become tool_error.
void excuseLostSanitizedRun(DeviceRun& run);

/// A sanitized run that could not start (its plan): the tool's failure, as a DeviceRun.
DeviceRun sanitizePlanFailed(const DeviceInfo& dev, const std::string& why);

}  // namespace clh::grade
