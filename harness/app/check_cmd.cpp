// `clharness check`: its options, handed to runCheck (run/check.hpp).
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <memory>
#include <thread>

#include "app/app.hpp"
#include "core/shard.hpp"
#include "run/check.hpp"

namespace {

struct CheckArgs {
  clh::CheckOptions check;
  std::string seed = "1";
  bool no_isolate = false, no_shrink = false, no_driver_checks = false, no_compile_ahead = false;
  std::string shard;
};

// What runs and how: the specs, devices, cases, outputs, time limits and how many at once.
void addRunOptions(CLI::App* cmd, const std::shared_ptr<CheckArgs>& a) {
  clh::CheckOptions& check = a->check;
  cmd->add_option("paths", check.paths, "spec files or directories (default: specs/)");
  cmd->add_option("--device", check.device_regex, clh::kDeviceOptionHelp);
  cmd->add_option("--cases", check.cases, "random cases per spec and device (default: the spec's)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--seed", a->seed, "run seed; the same seed replays the same sizes and data");
  cmd->add_option("--sizes", check.sizes, "run exactly this case, e.g. N=17,TS=4");
  // The outputs live in the shared arguments; the aliasing pointer keeps them alive with them.
  clh::addReportOptions(*cmd, {a, &a->check.reports}, "the report");
  clh::secondsLimit(cmd->add_option("--timeout", check.timeout_s,
                                    "seconds one spec may run on one device (default 600)"));
  // One unit more than cores: a unit's process also starts, loads its driver and waits on files,
  // and the extra one keeps the cores busy meanwhile (the main job warm on 2 cores: 62 s at 2, 58
  // s at 3; cold the same; docs/performance.md, "One unit more than cores").
  check.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency())) + 1;
  cmd->add_option("--jobs,-j", check.jobs,
                  "units run at once, each in its own processes (default: the number of cores "
                  "plus one); a GPU takes one unit at a time, and CPU timings are taken under "
                  "that load")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--cpu-device-jobs", check.cpu_device_jobs,
                  "at most N units at once on one CPU device, within --jobs (default: no limit "
                  "of its own)")
      ->check(CLI::Range(0, 256));
  cmd->add_flag("--no-isolate", a->no_isolate,
                "run in this process (a crashing kernel ends the run)");
  cmd->add_flag("--no-shrink", a->no_shrink, "report the first failing case without shrinking it");
  cmd->add_option("--build-programs", check.build_programs,
                  "distinct programs a spec's random cases may build where its sizes are build "
                  "options, the lowest and highest options among them (default 8, 0: no limit)")
      ->check(CLI::Range(0, 1000000));
}

// The checks beside the kernel's results: buffer and read modes, launch shapes, driver checks.
void addModeOptions(CLI::App* cmd, const std::shared_ptr<CheckArgs>& a) {
  clh::CheckOptions& check = a->check;
  cmd->add_option("--buffer-mode", check.buffer_mode,
                  "buffer flags: write, copy_host_ptr, use_host_ptr, alloc_host_ptr, "
                  "alloc_copy_host_ptr, or all (each case in every mode; all must agree)");
  cmd->add_option("--read-mode", check.read_mode,
                  "how results come back: blocking, nonblocking_wait, nonblocking_finish, map, "
                  "host_pointer (recorded, never failed), or all");
  cmd->add_option("--launch-shapes", check.launch_shapes,
                  "generated launch shapes per spec and device, checked against the OpenCL "
                  "specification's rules (a unit '[launch]' each; default 100, 0: none)")
      ->check(CLI::Range(0, 100000));
  cmd->add_flag("--sanitize", check.sanitize,
                "also run each spec's kernel instrumented by the sanitizer on every real device, "
                "at the largest sizes of its full ranges and a few random ones (a unit "
                "'[sanitize]' each: out-of-bounds accesses, __local races, races across "
                "work-groups, uninitialized __local reads; docs/sanitizer.md)");
  cmd->add_flag("--no-driver-checks", a->no_driver_checks,
                "leave out the driver checks (clharness semantics, once per device) of the "
                "driver section");
  cmd->add_flag("--no-compile-ahead", a->no_compile_ahead,
                "let each unit's process compile its own programs (by default one process per "
                "real device compiles first what its units will build, so that a driver with a "
                "kernel cache starts its compiler once; docs/performance.md)");
}

// Baselines, the simulator's replay, shards and resuming; returns --baseline (regression mode
// when given).
CLI::Option* addBaselineAndRunPartOptions(CLI::App* cmd, const std::shared_ptr<CheckArgs>& a) {
  clh::CheckOptions& check = a->check;
  auto* baseline =
      cmd->add_option("--baseline", check.baseline_dir,
                      "regression mode: driver findings that are new or differ from the device's "
                      "baseline in DIR (default: baselines/) fail the run (exit 1); one that "
                      "changes on a rerun is reported flaky")
          ->expected(0, 1);
  cmd->add_option("--write-baseline", check.write_baseline,
                  "record each device's driver section as a baseline file in DIR");
  cmd->add_flag("--per-model", check.per_model,
                "with --write-baseline: a baseline for this device model only (an override of "
                "the driver's)");
  cmd->add_option("--replay-budget", check.replay_budget_s,
                  "seconds the simulator may take to replay a real device's smallest failing case "
                  "and name the statement (default 60; 0: no replay)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--shard", a->shard,
                  "run part K of N (0 <= K < N) of the specs, for a CI matrix or a Slurm array; "
                  "default: GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS when set (docs/ci.md)");
  cmd->add_flag("--resume", check.resume,
                "go on from the journal of an interrupted run into the same --json/--junit "
                "(FILE.journal), with the same options: each unit runs once");
  return baseline;
}

}  // namespace

void addCheckCommand(CLI::App& app, const std::function<clh::ToolConfig()>& config) {
  auto a = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand("check", "run specs on devices and compare with their references");
  addRunOptions(cmd, a);
  addModeOptions(cmd, a);
  CLI::Option* baseline = addBaselineAndRunPartOptions(cmd, a);
  cmd->callback([a, baseline, config] {
    clh::finishCommand("check", [&] {
      if (!clh::parseSeed(a->seed, a->check.seed))
        throw std::invalid_argument("--seed: '" + a->seed + "' is not an unsigned integer");
      a->check.isolate = !a->no_isolate;
      a->check.shrink = !a->no_shrink;
      a->check.driver_checks = !a->no_driver_checks;
      a->check.compile_ahead = !a->no_compile_ahead;
      a->check.regression = baseline->count() > 0;
      const clh::Shard shard = clh::shardFromOption(a->shard);
      a->check.shard_index = shard.index;
      a->check.shard_count = shard.count;
      return clh::runCheck(config(), a->check);
    });
  });
}
