// A spec's sanitized unit on one real device (`SPEC [sanitize]`, check --sanitize): its plan
// made here (sizes from the spec's full ranges, the kernel rewritten once per build options),
// its cases in a child process of the unit's job (run/units.hpp), with the same time limits,
// crash and hang handling as the spec's random cases; a case that crashes or hangs sanitized is run
// again plain to say whose the crash is.
#pragma once

#include <filesystem>

#include "cl/devices.hpp"
#include "core/result.hpp"
#include "core/spec.hpp"
#include "run/check.hpp"

namespace clh {

/// Why the spec gets no sanitized unit on `dev` (the simulator looks itself; a kernel that does
/// not build), or null when it gets one.
const char* whyNotSanitized(const DeviceInfo& dev, const UnitResult& cases);

/// The unit: a failure of clharness's (the plan, the rewrite, a compiler that dies on the
/// instrumented program) is a tool_error, never the kernel's. A case whose process crashed or
/// hung runs again plain (the same sizes and seed, not instrumented) in a process of its own, and
/// chargeLostSanitizedCase says whose it is. `spec` may be an audit's mutant (its source_path).
UnitResult runSanitizedUnitIsolated(const ToolConfig& config, const Spec& spec,
                                    const DeviceInfo& dev, const CheckOptions& o,
                                    const std::filesystem::path& scratch);

/// Whether a sanitized unit's process crashed or hung during a case: its finding is a crash, a
/// timeout, or a death in a launch's compile step (cl/compile_watch.hpp).
bool lostSanitizedCase(const UnitResult& sanitized);

/// Charges a lost sanitized case (lostSanitizedCase) from `plain`, the same case run plain: when
/// the plain run crashed or hung too, the kernel's (its kind, the plain run's evidence named in
/// the summary and raw text); else clharness's (tool_error: the instrumented program died where
/// the kernel does not). `plain` null: no plain run could be made (no case had started), the
/// tool's.
void chargeLostSanitizedCase(UnitResult& sanitized, const UnitResult* plain);

}  // namespace clh
