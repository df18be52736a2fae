// `clharness merge REPORT.json...`: one report from shards and machines, its reports and exit code.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>

#include "app/app.hpp"
#include "report/formats.hpp"
#include "report/reporters.hpp"
#include "run/merge.hpp"

void addMergeCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> inputs;
    std::vector<clh::ReportOutput> reports;
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "merge", "merge the JSON reports of shards or machines into one report (docs/ci.md)");
  cmd->add_option("reports", a->inputs, "JSON reports (check --json)")->required();
  clh::addReportOptions(*cmd, {a, &a->reports}, "the merged report");
  cmd->callback([a] {
    clh::finishCommand("merge", [&] {
      std::vector<clh::Report> in;
      for (const auto& f : a->inputs) {
        std::ifstream is(f);
        if (!is) throw std::runtime_error("cannot read " + f);
        try {
          in.push_back(nlohmann::json::parse(is).get<clh::Report>());
        } catch (const nlohmann::json::exception& e) {
          throw std::runtime_error(f + " is not a clharness JSON report: " + e.what());
        }
      }
      const clh::MergeOutcome m = clh::mergeReports(in, a->inputs);
      for (const auto& n : m.notes) std::cerr << "clharness merge: " << n << "\n";
      clh::writeConsoleReport(std::cout, m.report);
      if (!clh::writeReportOutputs(m.report, a->reports)) return int(clh::kExitUsage);
      // A merge that is not the whole run (a shard missing or interrupted) never reads as a pass.
      return int(clh::reportPasses(m.report) && m.complete && m.report.interrupted_by.empty()
                     ? clh::kExitOk
                     : clh::kExitCheckFailed);
    });
  });
}
