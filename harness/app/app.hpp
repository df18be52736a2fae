// The command-line shell: each command registers its options with CLI11 and hands them to one
// library call (run/, launch/, drivers/, audit/, scan/, grade/). Only main() reads argv and the
// environment; every command gets a ToolConfig value.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cl/tool.hpp"
#include "report/formats.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace clh {

/// The end of a command's CLI11 callback: runs `body`; an exception becomes "clharness NAME: ..."
/// on stderr (a bad --device regular expression said as such) and exit code 2; the code then goes
/// to main through CLI::RuntimeError (0 included: nothing else runs after a command's callback).
[[noreturn]] void finishCommand(const std::string& name, const std::function<int()>& body);

/// The most seconds a time limit may be given (about 11 days): a limit is a number of seconds more
/// than 0 and at most this.
inline constexpr double kMaxLimitSeconds = 1e6;

/// Checks a time-limit option (`--timeout` and the like): more than 0 and at most
/// kMaxLimitSeconds, else a usage error saying both bounds as people write them.
CLI::Option* secondsLimit(CLI::Option* option);

/// The report options every command that writes a Report shares: --json FILE, --junit FILE,
/// --html FILE and --report FORMAT=FILE (repeatable, the formats of report/formats.hpp), appended
/// to `outputs` in the order given. `what` names the report in --help ("the report", "the merged
/// report").
void addReportOptions(CLI::App& cmd, const std::shared_ptr<std::vector<ReportOutput>>& outputs,
                      const std::string& what);

}  // namespace clh

using ConfigSource = std::function<clh::ToolConfig()>;

void addDevicesCommand(CLI::App& app, const ConfigSource& config);
void addCheckCommand(CLI::App& app, const ConfigSource& config);
void addInternalCommands(CLI::App& app, const ConfigSource& config);
void addChildCommand(CLI::App& app, const ConfigSource& config);
void addSemanticsCommand(
    CLI::App& app,
    const std::function<std::vector<clh::DeviceInfo>(const std::string& regex)>& devices);
void addAuditCommand(CLI::App& app, const ConfigSource& config);
void addScanCommand(CLI::App& app, const ConfigSource& config);
void addGradeCommand(CLI::App& app, const ConfigSource& config);
void addLaunchCommand(CLI::App& app, const ConfigSource& config);
void addMergeCommand(CLI::App& app);
