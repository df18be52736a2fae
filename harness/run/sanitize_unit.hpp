// A spec's sanitized unit on one real device (`SPEC [sanitize]`, check --sanitize): its plan
// made here (sizes from the spec's full ranges, the kernel rewritten once per build options),
// its cases in a child process of the unit's job (run/units.hpp), with the same time limits,
// crash and hang handling as the spec's random cases.
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
/// instrumented program) is a tool_error, never the kernel's.
UnitResult runSanitizedUnitIsolated(const ToolConfig& config, const Spec& spec,
                                    const DeviceInfo& dev, const CheckOptions& o,
                                    const std::filesystem::path& scratch);

}  // namespace clh
