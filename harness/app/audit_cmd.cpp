// `clharness audit`: the barrier audit of specs on every selected device, each (mutant, device)
#include <CLI/CLI.hpp>
#include <memory>

#include "app/app.hpp"
#include "audit/command.hpp"

using namespace clh::audit;

void addAuditCommand(CLI::App& app, const std::function<clh::ToolConfig()>& config) {
  auto args = std::make_shared<AuditArgs>();
  CLI::App* cmd = app.add_subcommand(
      "audit",
      "Barrier audit: remove each barrier, fence or async wait of each spec's kernel in turn, run "
      "every mutant on the simulator and the real devices (sanitized there too), and report each "
      "call necessary (with the race or wrong result that follows its removal) or redundant");
  cmd->add_option("paths", args->paths, "spec files or directories (default: specs/)");
  cmd->add_option("--device", args->device_regex, clh::kDeviceOptionHelp);
  cmd->add_option("--call", args->calls,
                  "audit only the N-th synchronisation call (1-based; repeatable)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed", args->seed, "run seed; the same seed replays the same sizes and data");
  cmd->add_option("--cases", args->cases,
                  "random cases per mutant on a real device (default: the spec's)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--sim-cases", args->sim_cases,
                  "random cases per mutant on a simulator (default: the spec's)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--sizes", args->sizes, "run exactly this case, e.g. N=17,TS=4");
  cmd->add_flag("--no-shrink", args->no_shrink,
                "report the first failing case without shrinking it");
  cmd->add_flag(
      "--no-sanitize", args->no_sanitize,
      "run no mutant sanitized on the real devices (the simulator and wrong results only)");
  cmd->add_flag("--no-isolate", args->no_isolate,
                "run every unit in this process (a mutant that crashes ends the run)");
  clh::secondsLimit(cmd->add_option("--timeout", args->timeout_s,
                                    "seconds one mutant may run on one device (default 300)"));
  cmd->add_option("--json", args->json_path, "write the audit as JSON to FILE");
  cmd->add_option("--markdown", args->markdown_path, "write the audit as a Markdown table to FILE");
  cmd->add_option("--mutants", args->mutants_dir, "keep the mutants' sources in DIR/<spec>/");
  auto cfg = config;  // the caller's function may not outlive this call
  cmd->callback(
      [args, cfg] { clh::finishCommand("audit", [&] { return runAudit(cfg(), *args); }); });
}
