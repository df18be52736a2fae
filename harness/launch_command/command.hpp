// `clharness launch` as library calls: the launch family of every spec on every device (the
// parent's table, JSON and baselines) and the child that runs one spec's shapes (job `__launch`).
#pragma once

#include <string>
#include <vector>

#include "cl/tool.hpp"
#include "launch/run.hpp"

namespace clh::launch {

/// The options of `clharness launch` (docs/cli.md).
struct LaunchArgs {
  std::vector<std::string> paths;
  std::string device_regex;
  std::string json_path;
  std::string baseline_dir;  // default: <root>/baselines/launch
  std::string write_baselines;
  std::string seed_text = "1";  ///< --seed as given (read once, into run.seed)
  clh::LaunchRunOptions run;    // shapes, replayed shape, limits, kinds
};

/// The child side of job `__launch`: one spec's shapes from `first` on; returns an ExitCode.
int runChildFamily(const clh::ToolConfig& config, const clh::LaunchJob& job,
                   clh::JobChannel& channel);

/// Every spec's family on every selected device, in child processes; prints the table, writes
/// JSON and baselines, and returns an ExitCode (1 on a deviation no baseline records).
int runLaunch(const clh::ToolConfig& config, const LaunchArgs& args);

}  // namespace clh::launch
