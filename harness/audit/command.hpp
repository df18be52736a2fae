// `clharness audit` as library calls: each spec's mutants (barriers removed, bounds moved) run
// against its checks on each device, and the child that runs one spec or mutant (job
// `__audit_unit`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cl/tool.hpp"
#include "core/hostbuffer.hpp"
#include "proc/job.hpp"

namespace clh::audit {

/// The options of `clharness audit` (docs/cli.md).
struct AuditArgs {
  std::vector<std::string> paths;
  std::string device_regex;
  std::string json_path, markdown_path, mutants_dir;
  std::vector<int> calls;
  std::string seed = "1";
  int cases = 0, sim_cases = 0;
  std::string sizes;
  bool no_shrink = false;
  bool no_isolate = false;
  bool no_sanitize = false;  ///< no sanitized units on the real devices
  double timeout_s = 300;
};

/// The job of an audit unit's child (`__audit_unit`): one spec, or a mutant of it (its source),
/// on one device; its events `case_start`, its result a UnitResult.
struct AuditUnitJob {
  std::string spec_file, source, device_id;
  uint64_t seed = 1;
  int cases = 0;
  std::optional<clh::Sizes> sizes;
  bool shrink = true;
  bool paired = false;  // the mutant only where the unmodified kernel passes
};
void to_json(nlohmann::json& j, const AuditUnitJob& job);
void from_json(const nlohmann::json& j, AuditUnitJob& job);

/// The child side of job `__audit_unit`: runs one unit in this process; returns an ExitCode.
int runAuditUnit(const clh::ToolConfig& config, const AuditUnitJob& job, clh::JobChannel& channel);

/// The audit of every spec on every selected device; prints and writes the reports and returns
/// an ExitCode (1 when a synchronisation call the kernel needs is found unnecessary or undecided).
int runAudit(const clh::ToolConfig& config, const AuditArgs& args);

}  // namespace clh::audit
