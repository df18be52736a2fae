// `clharness semantics`: runs the driver checks on each selected device, prints the matrix, and
// compares each device's column with its committed baseline (exit 1 on any change, 3 on no device).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/app.hpp"
#include "cl/devices.hpp"
#include "drivers/baseline.hpp"
#include "semantics/driver_checks.hpp"
#include "semantics/launch_checks.hpp"
#include "semantics/matrix.hpp"

namespace fs = std::filesystem;

namespace {

struct SemanticsArgs {
  std::string device_regex;
  std::string json_path;
  std::string baseline_path;
  std::string write_baselines;
  std::string launch_family;    // hidden: child mode, see runIsolatedLaunchRows
  bool isolate_launch = false;  // hidden: every launch family in a child of its own
};

nlohmann::json readJson(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
}

void writeJson(const fs::path& path, const nlohmann::json& json) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  out << json.dump(2) << "\n";
}

int runSemantics(const SemanticsArgs& args, const std::vector<std::string>& command_path,
                 const std::function<std::vector<clh::DeviceInfo>(const std::string&)>& devices) {
  namespace sem = clh::semantics;
  std::vector<clh::DeviceInfo> selected = devices(args.device_regex);
  if (selected.empty()) {
    std::cerr << "clharness semantics: no OpenCL device"
              << (args.device_regex.empty() ? "" : " matches '" + args.device_regex + "'") << "\n";
    return 3;
  }
  if (!args.launch_family.empty()) {
    // Child mode: one crash-prone family on the first device, rows as JSON on stdout.
    sem::LaunchCheckOptions options;
    options.families = {args.launch_family};
    std::cout << sem::launchRowsJson(sem::runLaunchChecks(selected.front(), options)) << "\n";
    return 0;
  }
  sem::Matrix matrix;
  for (const auto& d : selected) {
    std::cerr << "running the semantics checks on " << d.displayName() << "\n";
    auto results = sem::runDriverChecks(d);
    if (!args.isolate_launch) {
      auto launch = sem::runLaunchChecks(d);
      results.insert(results.end(), launch.begin(), launch.end());
    }
    // Shapes that have killed a driver run in a child: this same command in child mode (every
    // family with --isolate-launch: after a driver took a whole run down).
    std::vector<std::string> child = {"/proc/self/exe"};
    child.insert(child.end(), command_path.begin(), command_path.end());
    child.insert(child.end(), {"--device", d.identity(), "--launch-family", "{family}"});
    auto isolated = sem::runIsolatedLaunchRows(
        child, 300, args.isolate_launch ? sem::launchFamilies() : sem::crashProneFamilies());
    results.insert(results.end(), isolated.begin(), isolated.end());
    matrix.push_back(sem::makeColumn(d, std::move(results)));
  }
  std::cout << sem::renderTable(matrix);

  if (!args.json_path.empty()) writeJson(args.json_path, sem::toJson(matrix));
  if (!args.write_baselines.empty())
    for (size_t i = 0; i < matrix.size(); ++i) {
      // The driver checks' part of the device's baseline; a launch part already there is kept.
      auto [file, b] = clh::drivers::baselineToUpdate(args.write_baselines, selected[i]);
      b.checks = matrix[i].results;
      writeJson(file, clh::drivers::toJson(b));
    }

  if (args.baseline_path.empty()) return 0;
  // A folder holds driver baselines (docs/semantics.md); a file holds a matrix (or one column).
  sem::Matrix baseline;
  std::vector<std::string> missing;
  if (fs::is_directory(args.baseline_path)) {
    for (size_t i = 0; i < matrix.size(); ++i) {  // one column per selected device, in order
      std::string note;
      if (auto b = clh::drivers::findBaseline(args.baseline_path, selected[i], &note)) {
        std::cout << "baseline of " << matrix[i].name << ": " << note << "\n";
        baseline.push_back(
            {matrix[i].slug, matrix[i].name, "", b->match.driver_version, std::move(b->checks)});
      } else {
        missing.push_back(matrix[i].slug + ": " + note);
      }
    }
  } else {
    baseline = sem::matrixFromJson(readJson(args.baseline_path));
  }
  size_t changes = 0;
  std::cout << "\nchanges against the baseline:\n";
  for (const auto& col : matrix) {
    auto it = std::find_if(baseline.begin(), baseline.end(),
                           [&](const sem::DeviceColumn& b) { return b.slug == col.slug; });
    if (it == baseline.end()) {
      if (!fs::is_directory(args.baseline_path)) missing.push_back(col.slug);
      continue;
    }
    for (const auto& c : sem::compareWithBaseline(col, *it)) {
      std::cout << "  " << c.toString() << "\n";
      ++changes;
    }
  }
  for (const auto& m : missing) std::cout << "  no baseline for " << m << "\n";
  std::cout << "  " << changes << " change(s)\n";
  return changes ? 1 : 0;
}

}  // namespace

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
  cmd->add_option("--baseline", args->baseline_path,
                  "Compare with a baseline: a folder of driver baselines (default layout: "
                  "baselines/), or a matrix JSON file");
  cmd->add_option("--write-baselines", args->write_baselines,
                  "Write each device's rows into its driver baseline file in DIR");
  cmd->add_option("--launch-family", args->launch_family,
                  "(internal) run one crash-prone launch family and print its rows as JSON")
      ->group("");
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
