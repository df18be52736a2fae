// clharness: the command-line tool. The only place that reads argv and the environment; every
// command gets an AppConfig value. Exit codes: 0 all as expected, 1 a check failed, 2 bad usage or
// spec, 3 no usable device (docs/cli.md).
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>
#include <thread>

#include "app/app.hpp"
#include "cl/devices.hpp"
#include "core/reference.hpp"

namespace fs = std::filesystem;

namespace {

std::string envOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

clh::AppConfig resolveConfig(const std::string& rootFlag) {
  clh::AppConfig c;
  std::error_code ec;
  c.exe = fs::read_symlink("/proc/self/exe", ec).string();
  std::string root = rootFlag.empty() ? envOr("CLHARNESS_ROOT", "") : rootFlag;
  if (root.empty() && fs::is_directory(fs::path(CLHARNESS_SOURCE_ROOT) / "kernels", ec))
    root = CLHARNESS_SOURCE_ROOT;
  if (root.empty()) root = fs::current_path(ec).string();
  c.repo_root = root;
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

// Subcommands that register themselves (each in its own file).
void addSemanticsCommand(
    CLI::App& app,
    const std::function<std::vector<clh::DeviceInfo>(const std::string& regex)>& devices);
void addAuditCommand(CLI::App& app, const std::function<clh::AppConfig()>& config);
void addScanCommand(CLI::App& app, const std::function<clh::AppConfig()>& config);
void addGradeCommand(CLI::App& app, const std::function<clh::AppConfig()>& config);
void addLaunchCommand(CLI::App& app, const std::function<clh::AppConfig()>& config);

int main(int argc, char** argv) {
  CLI::App app{
      "clharness: runs OpenCL kernels under random sizes on every device found and checks them\n"
      "against scalar C++ references. Exit codes: 0 as expected, 1 a check failed, 2 bad usage or\n"
      "spec, 3 no usable device."};
  app.require_subcommand(1);
  std::string root;
  app.add_option("--root", root,
                 "repository root that spec sources resolve against (default: the source tree)");

  std::string deviceRegex;
  bool json = false;
  auto* devices =
      app.add_subcommand("devices", "list every OpenCL device found (drivers and simulators)");
  devices->add_option("--device", deviceRegex, clh::kDeviceOptionHelp);
  devices->add_flag("--json", json, "print JSON instead of a table");

  clh::CheckOptions check;
  std::string seedText = "1";
  bool noIsolate = false, noShrink = false;
  auto* checkCmd =
      app.add_subcommand("check", "run specs on devices and compare with their references");
  checkCmd->add_option("paths", check.paths, "spec files or directories (default: specs/)");
  checkCmd->add_option("--device", check.device_regex, clh::kDeviceOptionHelp);
  checkCmd
      ->add_option("--cases", check.cases, "random cases per spec and device (default: the spec's)")
      ->check(CLI::Range(1, 1000000));
  checkCmd->add_option("--seed", seedText,
                       "run seed; the same seed replays the same sizes and data");
  checkCmd->add_option("--sizes", check.sizes, "run exactly this case, e.g. N=17,TS=4");
  checkCmd->add_option("--json", check.json_path, "write the JSON report (docs/report.md) to FILE");
  checkCmd->add_option("--junit", check.junit_path, "write JUnit XML to FILE");
  checkCmd->add_option("--timeout", check.timeout_s,
                       "seconds one spec may run on one device (default 600)");
  check.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  checkCmd
      ->add_option("--jobs,-j", check.jobs,
                   "units run at once, each in its own processes (default: the number of cores); "
                   "a GPU takes one unit at a time, and CPU timings are taken under that load")
      ->check(CLI::Range(1, 256));
  checkCmd->add_flag("--no-isolate", noIsolate,
                     "run in this process (a crashing kernel ends the run)");
  checkCmd->add_flag("--no-shrink", noShrink, "report the first failing case without shrinking it");
  checkCmd->add_option(
      "--buffer-mode", check.buffer_mode,
      "buffer flags: write, copy_host_ptr, use_host_ptr, alloc_host_ptr, alloc_copy_host_ptr, "
      "or all (each case in every mode; all must agree)");
  checkCmd->add_option(
      "--read-mode", check.read_mode,
      "how results come back: blocking, nonblocking_wait, nonblocking_finish, map, "
      "host_pointer (recorded, never failed), or all");
  checkCmd
      ->add_option("--launch-shapes", check.launch_shapes,
                   "generated launch shapes per spec and device, checked against the OpenCL "
                   "specification's rules (a unit '[launch]' each; default 100, 0: none)")
      ->check(CLI::Range(0, 100000));
  bool noDriverChecks = false;
  checkCmd->add_flag("--no-driver-checks", noDriverChecks,
                     "leave out the driver checks (clharness semantics, once per device) of the "
                     "driver section");
  auto* baselineOpt =
      checkCmd
          ->add_option("--baseline", check.baseline_dir,
                       "regression mode: driver findings that are new or differ from the device's "
                       "baseline in DIR (default: baselines/) fail the run (exit 1); one that "
                       "changes on a rerun is reported flaky")
          ->expected(0, 1);
  checkCmd->add_option("--write-baseline", check.write_baseline,
                       "record each device's driver section as a baseline file in DIR");
  checkCmd->add_flag("--per-model", check.per_model,
                     "with --write-baseline: a baseline for this device model only (an override "
                     "of the driver's)");

  checkCmd->add_flag("--resume", check.resume,
                     "go on from the journal of an interrupted run into the same --json/--junit "
                     "(FILE.journal), with the same options: each unit runs once");

  auto* refs = app.add_subcommand("references", "list the registered reference functions");

  clh::UnitChildOptions unit;
  std::string unitSeed = "1";
  bool unitNoShrink = false;
  auto* unitCmd =
      app.add_subcommand("__unit", "(internal) run one spec on one device in this process");
  unitCmd->group("");
  unitCmd->add_option("--spec", unit.spec_file)->required();
  unitCmd->add_option("--device-id", unit.device_id)->required();
  unitCmd->add_option("--seed", unitSeed);
  unitCmd->add_option("--cases", unit.cases);
  unitCmd->add_option("--sizes", unit.sizes);
  unitCmd->add_option("--out", unit.out)->required();
  unitCmd->add_flag("--no-shrink", unitNoShrink);
  unitCmd->add_option("--buffer-mode", unit.buffer_mode);
  unitCmd->add_option("--read-mode", unit.read_mode);

  std::vector<std::string> ctestPaths;
  std::string ctestExe;
  auto* ctestCmd =
      app.add_subcommand("__ctest", "(internal) print CTest registrations of spec x device");
  ctestCmd->group("");
  ctestCmd->add_option("paths", ctestPaths)->required();
  ctestCmd->add_option("--exe", ctestExe)->required();

  // Commands that run from CLI11's callback find devices through the same registration.
  auto devicesFor = [&root](const std::string& regex) {
    return clh::findDevices(resolveConfig(root), regex);
  };
  addSemanticsCommand(app, devicesFor);
  addAuditCommand(app, [&root] { return resolveConfig(root); });
  addScanCommand(app, [&root] { return resolveConfig(root); });
  addGradeCommand(app, [&root] { return resolveConfig(root); });
  addLaunchCommand(app, [&root] { return resolveConfig(root); });

  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {  // a command that ran in a callback, with its exit code
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : clh::kExitUsage;
  }

  clh::AppConfig config = resolveConfig(root);
  try {
    if (*devices) return clh::runDevices(config, deviceRegex, json);
    if (*checkCmd) {
      if (!clh::parseSeed(seedText, check.seed)) {
        std::cerr << "clharness: --seed: '" << seedText << "' is not an unsigned integer\n";
        return clh::kExitUsage;
      }
      check.isolate = !noIsolate;
      check.shrink = !noShrink;
      check.driver_checks = !noDriverChecks;
      check.regression = baselineOpt->count() > 0;
      return clh::runCheck(config, check);
    }
    if (*refs) {
      for (const auto& n : clh::ReferenceRegistry::instance().names()) std::cout << n << "\n";
      return clh::kExitOk;
    }
    if (*unitCmd) {
      if (!clh::parseSeed(unitSeed, unit.seed)) return clh::kExitUsage;
      unit.shrink = !unitNoShrink;
      return clh::runUnitChild(config, unit);
    }
    if (*ctestCmd) return clh::runCtestScript(config, ctestPaths, ctestExe);
  } catch (const std::regex_error& e) {
    std::cerr << "clharness: --device: not a valid regular expression (" << e.what() << ")\n";
    return clh::kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "clharness: " << e.what() << "\n";
    return clh::kExitUsage;
  }
  // The commands that run from CLI11's callback (semantics, audit, ...) report failure by
  // throwing CLI::RuntimeError; reaching here means the one that ran succeeded.
  return clh::kExitOk;
}
