// `clharness audit` as library calls: each spec's mutants (barriers removed, bounds moved) run
// against its checks on each device, and the child that runs one spec or mutant (`__audit-unit`).
#pragma once

#include <string>
#include <vector>

#include "cl/tool.hpp"

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
  double timeout_s = 300;
};

// The hidden child: one spec (or a mutant of it) on one device, as JSON lines in `out`.
/// The hidden child: one spec (or a mutant of it) on one device, as JSON lines in `out`.
struct AuditUnitArgs {
  std::string spec_file, source, device_id, out, sizes, stderr_file;
  int cases = 0;
  std::string seed = "1";
  bool no_shrink = false;
  bool paired = false;  // the mutant only where the unmodified kernel passes
};

/// The child side (`__audit_unit`): runs one unit in this process; returns an ExitCode.
int runAuditUnit(const clh::ToolConfig& config, const AuditUnitArgs& a);

/// The audit of every spec on every selected device; prints and writes the reports and returns
/// an ExitCode (1 when a synchronisation call the kernel needs is found unnecessary or undecided).
int runAudit(const clh::ToolConfig& config, const AuditArgs& args);

}  // namespace clh::audit
