// `clharness launch SPEC|DIR...`: the launch-configuration family of every spec on every device.
#include <CLI/CLI.hpp>
#include <memory>

#include "app/app.hpp"
#include "launch_command/command.hpp"

using namespace clh::launch;

void addLaunchCommand(CLI::App& app, const std::function<clh::ToolConfig()>& config) {
  auto args = std::make_shared<LaunchArgs>();
  CLI::App* cmd = app.add_subcommand(
      "launch",
      "Run each spec's kernel under generated launch shapes (local sizes in and out of range, "
      "NULL and zero local sizes, offsets, __local memory over the device's) and check each "
      "enqueue against the OpenCL specification's rules and each launch that runs against the "
      "reference. Exit 1 on a deviation not in the device's baseline (baselines/) or a result "
      "mismatch");
  cmd->add_option("paths", args->paths, "spec files or directories (default: specs/)");
  cmd->add_option("--device", args->device_regex, clh::kDeviceOptionHelp);
  cmd->add_option("--shapes", args->run.shapes, "launch shapes per spec and device (default 100)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--seed", args->seed_text,
                  "run seed: the same seed gives the same cases and shapes");
  cmd->add_option("--shape", args->run.shape, "replay only the shape of this index")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--kind", args->run.kinds,
                  "only shapes of this family (repeatable): spec, valid, zero_local, ...; default: "
                  "the families that depend on the kernel, as `check` runs them");
  cmd->add_option("--json", args->json_path,
                  "write the summary (deviations, mismatches) as JSON to FILE");
  cmd->add_option("--baseline", args->baseline_dir,
                  "folder of driver baselines whose launch part lists known deviations "
                  "(default: baselines/)");
  cmd->add_option("--write-baselines", args->write_baselines,
                  "write each device's deviations of this run into its baseline file in DIR "
                  "(docs/semantics.md)");
  clh::secondsLimit(cmd->add_option("--timeout", args->run.timeout_s,
                                    "seconds one child process may run (default 900)"));
  cmd->add_option("--shape-timeout", args->run.shape_timeout_s,
                  "seconds one shape may run, its result check included (default 30): a driver "
                  "stuck on a shape is recorded as a timeout and the family goes on");
  cmd->add_flag("--no-results", args->run.no_results,
                "only compare the enqueue codes; skip the result checks");
  cmd->add_flag("--simulator-checks", args->run.simulator_checks,
                "on Oclgrind, run the result checks with its race and memory checks (slower)");
  auto cfg = config;  // the caller's function may not outlive this call
  cmd->callback([args, cfg] {
    if (args->run.kinds.empty()) args->run.kinds = clh::launch::kernelFamilies();
    clh::finishCommand("launch", [&] { return runLaunch(cfg(), *args); });
  });
}
