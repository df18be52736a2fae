// clharness: the command-line tool. The only place that reads argv and the environment; every
// command gets an ToolConfig value. Exit codes: 0 all as expected, 1 a check failed, 2 bad usage or
// spec, 3 no usable device (docs/cli.md). main() is in the clharness::cli library: the tool and
// every runner of clharness_add_kernel_tests (docs/framework.md) are it plus their references.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>
#include <thread>

#include "app/app.hpp"
#include "cl/devices.hpp"
#include "core/reference.hpp"
#include "core/version.hpp"

namespace fs = std::filesystem;

extern char** environ;

namespace clh {
/// Defined by each program that links clharness::cli (a source clharness_add_kernel_tests and
/// harness/app/CMakeLists.txt generate): the folder `source:` paths and the default specs/ resolve
/// against when neither --root nor CLHARNESS_ROOT names one (the clharness tool: its source tree;
/// a runner: the project that built it), and the name replay commands give the program.
extern const char* const kProgramRoot;
extern const char* const kProgramName;
}  // namespace clh

namespace {

std::string envOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

clh::ToolConfig resolveConfig(const std::string& rootFlag) {
  clh::ToolConfig c;
  std::error_code ec;
  c.exe = fs::read_symlink("/proc/self/exe", ec).string();
  std::string root = rootFlag.empty() ? envOr("CLHARNESS_ROOT", "") : rootFlag;
  if (root.empty() && *clh::kProgramRoot && fs::is_directory(clh::kProgramRoot, ec))
    root = clh::kProgramRoot;
  if (root.empty()) root = fs::current_path(ec).string();
  c.repo_root = root;
  c.tool_name = clh::kProgramName;
  // A child of the tool uses the vendors folder its parent made, as it is; a top-level run makes
  // a private one (removed when it exits) unless CLHARNESS_ICD_DIR names one. A user's own
  // OCL_ICD_VENDORS is the list of drivers to start from.
  const std::string inherited = envOr(clh::kIcdFolderVariable, "");
  const std::string userVendors = envOr("OCL_ICD_VENDORS", "");
  if (!inherited.empty() && fs::is_directory(inherited, ec)) {
    c.icd.folder = inherited;
    c.icd.reuse = true;
  } else {
    c.icd.folder = envOr("CLHARNESS_ICD_DIR", "");
    if (!userVendors.empty() && userVendors != inherited && userVendors != c.icd.folder)
      c.icd.system_vendors = userVendors;
  }
  c.sandbox_refused = envOr("CLHARNESS_SANDBOX_REFUSED", "");
  // What ctest allocated to this test (RESOURCE_GROUPS), for `--device ctest:TYPE`.
  const std::string prefix = clh::kCtestResourceVariablePrefix;
  for (char** e = environ; e && *e; ++e) {
    const std::string var = *e;
    const auto eq = var.find('=');
    if (eq != std::string::npos && var.rfind(prefix, 0) == 0)
      c.ctest_resources[var.substr(0, eq)] = var.substr(eq + 1);
  }
  return c;
}

}  // namespace

void clh::finishCommand(const std::string& name, const std::function<int()>& body) {
  int code = clh::kExitUsage;
  try {
    code = body();
  } catch (const std::regex_error& e) {
    std::cerr << "clharness " << name << ": --device: not a valid regular expression (" << e.what()
              << ")\n";
  } catch (const std::exception& e) {
    std::cerr << "clharness " << name << ": " << e.what() << "\n";
  }
  throw CLI::RuntimeError(code);
}

CLI::Option* clh::secondsLimit(CLI::Option* option) {
  return option->check(CLI::Validator(
      [](std::string& text) -> std::string {
        double v = 0;
        size_t used = 0;
        try {
          v = std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == text.size() && used > 0 && v > 0 && v <= kMaxLimitSeconds) return "";
        return "'" + text + "' is not a number of seconds more than 0 and at most " +
               std::to_string(static_cast<long>(kMaxLimitSeconds)) + " (about 11 days)";
      },
      "SECONDS"));
}

void clh::addReportOptions(CLI::App& cmd, const std::shared_ptr<std::vector<ReportOutput>>& outputs,
                           const std::string& what) {
  cmd.add_option_function<std::string>(
      "--json",
      [outputs](const std::string& f) {
        outputs->push_back({"json", f});
      },
      "write " + what + " as JSON (docs/report.md) to FILE (= --report json=FILE)");
  cmd.add_option_function<std::string>(
      "--junit",
      [outputs](const std::string& f) {
        outputs->push_back({"junit", f});
      },
      "write " + what + " as JUnit XML to FILE (= --report junit=FILE)");
  cmd.add_option_function<std::string>(
      "--html",
      [outputs](const std::string& f) {
        outputs->push_back({"html", f});
      },
      "write " + what +
          " as one self-contained HTML page (summary, driver matrix, plots, findings with their "
          "source; docs/report.md) to FILE (= --report html=FILE)");
  std::string formats;
  for (const auto& f : reportFormats()) formats += "\n  " + f.name + ": " + f.description;
  cmd.add_option_function<std::vector<std::string>>(
      "--report",
      [outputs](const std::vector<std::string>& v) {
        for (const auto& r : v) try {
            outputs->push_back(parseReportOutput(r));
          } catch (const std::invalid_argument& e) {
            throw CLI::ValidationError(e.what());
          }
      },
      "write " + what + " in FORMAT to FILE (repeatable), FORMAT one of:" + formats);
}

int main(int argc, char** argv) {
  CLI::App app{
      "clharness: runs OpenCL kernels under random sizes on every device found and checks them\n"
      "against scalar C++ references. Exit codes: 0 as expected, 1 a check failed, 2 bad usage or\n"
      "spec, 3 no usable device."};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("clharness ") + clh::kClharnessVersionString,
                       "print the version and the git revision, and exit");
  std::string root;
  app.add_option("--root", root,
                 "repository root that spec sources resolve against (default: the source tree)");

  // Each command registers itself (app/*_cmd.cpp) and runs from CLI11's callback; the devices
  // and paths it sees come from the one configuration resolved here.
  auto config = [&root] { return resolveConfig(root); };
  addDevicesCommand(app, config);
  addCheckCommand(app, config);
  addInternalCommands(app, config);
  addChildCommand(app, config);
  addSemanticsCommand(app, [&root](const std::string& regex) {
    return clh::findDevices(resolveConfig(root), regex);
  });
  addAuditCommand(app, config);
  addScanCommand(app, config);
  addGradeCommand(app, config);
  addLaunchCommand(app, config);
  addMergeCommand(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {  // a command that ran in a callback, with its exit code
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : clh::kExitUsage;
  }

  // Every command reports its exit code by throwing CLI::RuntimeError from its callback.
  return clh::kExitOk;
}
