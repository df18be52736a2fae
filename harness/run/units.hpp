// One unit (a spec's random cases on one device) in a child process of its own: the parent's side
// (a crash, a timeout or a lost process becomes the unit's finding) and the child's (the job
// `__unit` of proc/job.hpp).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cl/session.hpp"
#include "cl/tool.hpp"
#include "cl/unit.hpp"
#include "core/sizes.hpp"
#include "proc/job.hpp"
#include "run/check.hpp"

namespace clh {

/// Loads every spec under `paths`; prints each error (file:line: ...) and returns false on any.
bool loadSpecs(const ToolConfig& config, const std::vector<std::string>& paths,
               std::vector<Spec>& specs);

/// The run modes `--buffer-mode` and `--read-mode` ask for (one entry per combination); throws
/// std::invalid_argument naming the bad word.
std::vector<RunOptions> runModes(const std::string& buffer_mode, const std::string& read_mode);

/// The unit in child processes of `config.exe` (job `__unit`), its JSON lines under `scratch`. On
/// the simulator a crash with one of Oclgrind's checks on is retried without that check; a process
/// that ended with no result for no reason of the kernel's is run once more (flaky).
UnitResult runUnitIsolated(const ToolConfig& config, const Spec& spec, const DeviceInfo& dev,
                           const CheckOptions& options, const std::filesystem::path& scratch);

/// The job of an isolated unit's child (`__unit`): one spec on one device.
struct UnitJob {
  std::string spec_file;
  /// The kernel file when it is not the spec's own (an audit's mutant: Spec::source_path); empty:
  /// the spec's.
  std::string source;
  std::string device_id;  ///< DeviceInfo::identity() of the parent's device
  uint64_t seed = 1;
  int cases = 0;
  std::optional<Sizes> sizes;
  bool shrink = true;
  int build_programs = 0;  ///< CheckOptions::build_programs
  std::string buffer_mode = "default", read_mode = "default";
  /// Only build a plain kernel on the device and say so (the control after a compiler crash).
  bool control_build = false;
  /// Non-empty: run this sanitizer plan (sanitize/cases.hpp), a unit of family "sanitize", instead
  /// of the spec's random cases (`sizes`, when set, keeps the plan's case of those sizes).
  std::string sanitize_plan;
};
void to_json(nlohmann::json& j, const UnitJob& job);
void from_json(const nlohmann::json& j, UnitJob& job);

/// The child side of an isolated unit: its events (`case_start`, the builds) and its UnitResult.
int runUnitChild(const ToolConfig& config, const UnitJob& job, JobChannel& channel);

/// What a unit runs with, from the options of `check` or of its child (the same fields).
template <class Options>
UnitOptions unitOptions(const ToolConfig& config, const Options& o) {
  UnitOptions uo;
  uo.seed = o.seed;
  uo.cases = o.cases;
  uo.shrink = o.shrink;
  uo.build_programs = o.build_programs;
  uo.tool = config.tool_name;
  uo.modes = runModes(o.buffer_mode, o.read_mode);
  if (o.sizes) {
    if constexpr (std::is_same_v<std::decay_t<decltype(*o.sizes)>, Sizes>)
      uo.sizes = *o.sizes;
    else
      uo.sizes = parseSizes(*o.sizes);
  }
  return uo;
}

}  // namespace clh
