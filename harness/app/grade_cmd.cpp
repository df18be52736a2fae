// `clharness grade`: grades a batch of student kernels against an assignment's rubric. Each
#include <CLI/CLI.hpp>
#include <memory>

#include "app/app.hpp"
#include "grade/command.hpp"

using namespace clh::grade;

void addGradeCommand(CLI::App& app, const std::function<clh::ToolConfig()>& config) {
  auto args = std::make_shared<GradeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "grade",
      "grade student kernels against an assignment's rubric: each submission on each device in a "
      "process of "
      "its own; feedback (Markdown, JSON), grades.csv and a summary table (docs/grading.md)");
  cmd->add_option(
         "--assignment", args->assignment,
         "an assignment name (specs/assignments/NAME.yaml) or the path of an assignment spec")
      ->required();
  cmd->add_option("submissions", args->paths, "submission files (.cl) or folders of them")
      ->required();
  cmd->add_option("--out", args->out, "folder for the results (default: grades-NAME)");
  cmd->add_option("--jobs", args->jobs, "submissions graded at once (default: the number of cores)")
      ->check(CLI::Range(1, 256));
  clh::secondsLimit(cmd->add_option(
      "--timeout", args->timeout_s,
      "seconds a case may always take (default 10); a case may also take 10 times "
      "what the reference solution took for it on the same device, and the driver's "
      "compile is not counted"));
  clh::secondsLimit(
      cmd->add_option("--build-timeout", args->build_timeout_s,
                      "seconds a program build may always take (default 120), or 10 times the "
                      "reference solution's"));
  cmd->add_option("--device", args->device_regex, clh::kDeviceOptionHelp);
  cmd->add_option("--format", args->format,
                  "markdown (default), or gradescope: also Gradescope's results.json")
      ->check(CLI::IsMember({"markdown", "gradescope"}));
  cmd->add_option("--html", args->html,
                  "also write the class overview (points per item, a histogram of totals) and "
                  "every submission's items, evidence and source lines as one self-contained "
                  "HTML page to FILE");
  cmd->add_option("--seed", args->seed,
                  "run seed: every submission sees the same sizes and data (default 1)");
  cmd->add_option("--cases", args->cases,
                  "random cases per device (default: the rubric's, else the spec's)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--sizes", args->sizes,
                  "replay one case (e.g. N=17,L=16): print the feedback, write nothing");
  // Below 256 MiB PoCL's compiler or the simulator runs out and the reference solutions lose
  // points (128: vadd's scored 40/100; 192 was the least that gave 100 here).
  cmd->add_option("--memory", args->memory_mb,
                  "memory limit of each grading process in MiB (default 2048, at least 256)")
      ->check(CLI::Range(256, 1 << 20));
  cmd->add_flag("--regrade", args->regrade,
                "grade every submission again, even those already graded");
  cmd->add_flag("--no-sanitize", args->no_sanitize,
                "no sanitized run on the real devices: the rubric's 'clean' item (check: "
                "simulator) is judged on the simulator alone (docs/grading.md)");
  cmd->add_flag("--allow-unassessed", args->allow_unassessed,
                "grade even when a rubric item cannot be assessed on the devices selected (no "
                "simulator, no real device): it scores 0, marked in every feedback and the "
                "gradebook (without it: exit code 3)");
  cmd->add_option("--sandbox", args->sandbox,
                  "required, auto (default) or off: each grading process in a sandbox of its own "
                  "(namespaces, a read-only file system but its scratch folder, no network, "
                  "seccomp); auto grades with limits only where the machine refuses namespaces, "
                  "required refuses to grade there (exit code 3); off is for debugging and tests "
                  "only (docs/grading.md)")
      ->check(CLI::IsMember({"required", "auto", "off"}));
  cmd->add_option("--shard", args->shard,
                  "grade part K of N (0 <= K < N) of the submissions, by id, for a CI matrix or a "
                  "Slurm array; default: GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS when set");
  auto cfg = config;  // the caller's function may not outlive this call
  cmd->callback(
      [args, cfg] { clh::finishCommand("grade", [&] { return runGrade(cfg(), *args); }); });
}
