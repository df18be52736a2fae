// The values grading's unit tests share: the repository root, two device names, the
// assignments they grade against (loaded once) and a device's run made by hand.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "grade/grade.hpp"
#include "grade/rubric.hpp"

namespace clh::grade::fixtures {

inline const std::string kRoot = CLHARNESS_SOURCE_ROOT;
inline const std::string kPocl = "Portable Computing Language: pthread-x";
inline const std::string kSim = "Oclgrind: Oclgrind Simulator";

inline const Assignment& vadd() {
  static const Assignment a = loadAssignment("vadd", kRoot);
  return a;
}
inline const Assignment& tiled() {
  static const Assignment a = loadAssignment("mmul_tiled", kRoot);
  return a;
}

/// A run on `device` that completed its cases: passed, or failed with `findings` at `sizes`.
inline DeviceRun run(const std::string& device, bool simulator, std::vector<Finding> findings = {},
                     Sizes sizes = {{"G", 4}, {"L", 4}, {"N", 3}}) {
  DeviceRun r;
  r.device = device;
  r.device_kind = simulator ? "simulator" : "cpu";
  r.simulator = simulator;
  UnitResult u;
  u.device = device;
  u.cases_run = 10;
  u.status = findings.empty() ? Status::pass : Status::fail;
  for (const auto& f : findings)
    if (f.kind == FindingKind::tool_error) u.status = Status::tool_error;
  if (!findings.empty()) {
    CaseOutcome c;
    c.sizes = sizes;
    c.findings = std::move(findings);
    u.failing = c;
  }
  r.unit = u;
  return r;
}

}  // namespace clh::grade::fixtures
