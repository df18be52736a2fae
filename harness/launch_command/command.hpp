// `clharness launch` as library calls: the launch family of every spec on every device (the
// parent's table, JSON and baselines) and the child that runs one spec's shapes (`__launch`).
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
  clh::LaunchRunOptions run;  // shapes, seed, replayed shape, limits, kinds
};

/// The child that runs one spec's shapes from `first` on (`__launch`), JSON lines to `out`.
struct ChildArgs {
  std::string spec;
  std::string device_id;  ///< DeviceInfo::identity() of the parent's device
  int shapes = 100, first = 0;
  std::string seed_text = "1";
  std::string out;
  bool no_results = false;
  bool simulator_checks = false;
  std::vector<std::string> kinds;
};

/// The child side; returns an ExitCode (1 after a shape that spoilt the context).
int runChildFamily(const clh::ToolConfig& config, const ChildArgs& a);

/// Every spec's family on every selected device, in child processes; prints the table, writes
/// JSON and baselines, and returns an ExitCode (1 on a deviation no baseline records).
int runLaunch(const clh::ToolConfig& config, const LaunchArgs& args);

}  // namespace clh::launch
