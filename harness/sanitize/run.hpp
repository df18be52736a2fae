// The sanitizer's run: a scan's case (its spec's first launch) on a real device with the
// instrumented program, the runtime's records read back as the project's findings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cl/session.hpp"
#include "core/finding.hpp"
#include "core/spec.hpp"
#include "sanitize/findings.hpp"
#include "sanitize/rewrite.hpp"

namespace clh::sanitize {

/// What a sanitized run looks at, as the notes of scan and check say it.
inline constexpr const char* kLookedAt =
    "bounds; races in __local memory, and in __global memory within a work-group and across "
    "work-groups; uninitialized __local reads";

/// What one sanitized launch found and how it ran.
struct SanitizeOutcome {
  std::vector<Finding> findings;   ///< each charged to the kernel's line(s), one per site and kind
  std::vector<std::string> notes;  ///< what was left unchecked and why; the shadow's size
  std::vector<Unchecked> unchecked;
  size_t sites = 0;  ///< accesses instrumented
};

/// How a tool_error begins when the instrumented launch failed as it ran (after it was taken),
/// followed by the OpenCL call and the error's name in parentheses: the kernel's own fault may be
/// the cause (run/sanitize_unit.cpp runs the case plain in a process of its own to tell).
inline constexpr const char* kInstrumentedDidNotRun = "the instrumented kernel did not run: ";

/// Runs launch 0 of `spec` (buffers filled as the spec says, from `seed`) with `source_path`'s
/// kernel instrumented, on the session's device. `shown_path` names the file in findings.
/// Findings of the tool's own (a parse or build failure of the rewrite) are tool_error.
SanitizeOutcome runSanitized(DeviceSession& session, const Spec& spec,
                             const std::string& source_path, const std::string& shown_path,
                             uint64_t seed);

/// The kernel's __global buffers (bit k: table entry k, the first 64) that no instrumented
/// access writes: every write site names its buffer and none names these. Their reads need bounds
/// checks only (no race is possible), and no shadow. 0 when some write's buffer is found only at
/// run time (a pointer passed to a helper, a pointer variable).
uint64_t readOnlyGlobals(const Instrumented& inst);

}  // namespace clh::sanitize
