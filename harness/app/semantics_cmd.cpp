// `clharness semantics`: runs the driver checks on each selected device, prints the matrix, and
#include <CLI/CLI.hpp>
#include <memory>

#include "app/app.hpp"
#include "drivers/command.hpp"

using namespace clh::drivers;

void addSemanticsCommand(
    CLI::App& app,
    const std::function<std::vector<clh::DeviceInfo>(const std::string& regex)>& devices) {
  auto args = std::make_shared<SemanticsArgs>();
  CLI::App* cmd = app.add_subcommand(
      "semantics",
      "Check host-side driver semantics (read modes, events, buffer flags, clCreateBuffer and "
      "launch error codes) on each device against the OpenCL specification and a baseline");
  cmd->add_option("--device", args->device_regex, clh::kDeviceOptionHelp);
  cmd->add_option("--json", args->json_path, "Write the matrix as JSON to FILE");
  cmd->add_option("--html", args->html_path,
                  "Write the matrix as one self-contained HTML page to FILE (docs/report.md)");
  cmd->add_option("--baseline", args->baseline_path,
                  "Compare with a baseline: a folder of driver baselines (default layout: "
                  "baselines/), or a matrix JSON file");
  cmd->add_option("--write-baselines", args->write_baselines,
                  "Write each device's rows into its driver baseline file in DIR");
  cmd->add_option("--launch-family", args->launch_family,
                  "(internal) run one crash-prone launch family and print its rows as JSON")
      ->group("");
  cmd->add_option("--shard", args->shard,
                  "check part K of N (0 <= K < N) of the devices selected, by identity; default: "
                  "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS when set");
  cmd->add_flag("--isolate-launch", args->isolate_launch,
                "(internal) run every launch family in a child process of its own")
      ->group("");
  // The subcommand's path from the root ("semantics", or "tool semantics"), for re-running itself.
  std::vector<std::string> path;
  for (const CLI::App* a = cmd; a && a->get_parent(); a = a->get_parent())
    path.insert(path.begin(), a->get_name());
  auto list = devices;  // the caller's function may not outlive this call
  // Exit codes travel as CLI::RuntimeError (main returns e.get_exit_code()): 1 a change from the
  // baseline, 2 a baseline or output file that cannot be used, 3 no device.
  cmd->callback([args, list, path] {
    clh::finishCommand("semantics", [&] { return runSemantics(*args, path, list); });
  });
}
