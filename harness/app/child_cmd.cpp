// The one hidden entry point of every child process, `__child KIND EVENTS JOB`, and the table of
// the jobs it dispatches (proc/job.hpp): each family's child side, by the kind its parent names.
#include <CLI/CLI.hpp>
#include <memory>

#include "app/app.hpp"
#include "audit/command.hpp"
#include "drivers/command.hpp"
#include "grade/command.hpp"
#include "launch_command/command.hpp"
#include "proc/job.hpp"
#include "run/prebuild.hpp"
#include "run/units.hpp"
#include "scan/command.hpp"

namespace {

// Every family's job, registered once: the parent names its kind in the child's command line.
void registerJobs(const ConfigSource& config) {
  clh::registerTypedJob<clh::UnitJob>("__unit", [config](const auto& job, auto& channel) {
    return clh::runUnitChild(config(), job, channel);
  });
  clh::registerTypedJob<clh::PrebuildJob>("__prebuild", [config](const auto& job, auto& channel) {
    return clh::runPrebuildChild(config(), job, channel);
  });
  clh::registerTypedJob<clh::LaunchJob>("__launch", [config](const auto& job, auto& channel) {
    return clh::launch::runChildFamily(config(), job, channel);
  });
  clh::registerTypedJob<clh::drivers::SemanticsJob>(
      "__semantics", [config](const auto& job, auto& channel) {
        return clh::drivers::runSemanticsChild(config(), job, channel);
      });
  clh::registerTypedJob<clh::grade::DeviceJob>(
      "__grade-one", [config](const auto& job, auto& channel) {
        return clh::grade::runGradeChild(config(), job, channel);
      });
  clh::registerTypedJob<clh::scan::ScanJob>("__scan", [config](const auto& job, auto& channel) {
    return clh::scan::runChildScan(config(), job, channel);
  });
  clh::registerTypedJob<clh::audit::AuditUnitJob>(
      "__audit_unit", [config](const auto& job, auto& channel) {
        return clh::audit::runAuditUnit(config(), job, channel);
      });
}

}  // namespace

void addChildCommand(CLI::App& app, const ConfigSource& config) {
  struct ChildArgs {
    std::string kind, events, job;
  };
  auto a = std::make_shared<ChildArgs>();
  auto* child = app.add_subcommand(clh::kChildCommand,
                                   "(internal) run one job of a family in this process, for its "
                                   "parent: KIND EVENTS JOB (proc/job.hpp)");
  child->group("");
  child->add_option("kind", a->kind)->required();
  child->add_option("events", a->events)->required();
  child->add_option("job", a->job)->required();
  child->callback([a, config] {
    registerJobs(config);
    clh::finishCommand(clh::kChildCommand,
                       [&] { return clh::runJobChild(a->kind, a->events, a->job); });
  });
}
