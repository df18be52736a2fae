// `clharness semantics` (drivers/command.hpp).
#include "drivers/command.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cl/devices.hpp"
#include "cl/driver_alone.hpp"
#include "core/files.hpp"
#include "core/shard.hpp"
#include "drivers/baseline.hpp"
#include "drivers/checks.hpp"
#include "drivers/html.hpp"
#include "drivers/launch_probes.hpp"
#include "drivers/matrix.hpp"

namespace fs = std::filesystem;

namespace clh::drivers {

namespace {

nlohmann::json readJson(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
}

void writeHtml(const std::string& path, const drivers::Matrix& matrix,
               const std::vector<std::vector<drivers::Change>>* changes) {
  if (path.empty()) return;
  std::ostringstream os;
  drivers::writeSemanticsHtml(os, matrix, changes);
  clh::writeFileAtomically(path, os.str());
}

void writeJson(const fs::path& path, const nlohmann::json& json) {
  clh::writeFileAtomically(path.string(), json.dump(2) + "\n");  // throws with the OS's reason
}

// One device's column: the driver checks, the launch checks in this process (unless
// `isolate_launch`), and the crash-prone launch families (all with `isolate_launch`) each in a
// child: `command_path` in child mode.
drivers::DeviceColumn deviceColumn(const clh::DeviceInfo& d, bool isolate_launch,
                                   const std::vector<std::string>& command_path) {
  std::cerr << "running the semantics checks on " << d.displayName() << "\n";
  auto results = drivers::runDriverChecks(d);
  if (!isolate_launch) {
    auto launch = drivers::runLaunchChecks(d);
    results.insert(results.end(), launch.begin(), launch.end());
  }
  // Shapes that have killed a driver run in a child: this same command in child mode (every
  // family with --isolate-launch: after a driver took a whole run down), with the device's driver
  // alone, as in a unit's process: another driver's signal handlers would be there otherwise
  // (PoCL's SIGFPE handler let Oclgrind survive a division by a local size of 0).
  std::vector<std::string> child = {"/proc/self/exe"};
  child.insert(child.end(), command_path.begin(), command_path.end());
  child.insert(child.end(), {"--device", d.identity(), "--launch-family", "{family}"});
  auto isolated = drivers::runIsolatedLaunchRows(
      child, 300, isolate_launch ? drivers::launchFamilies() : drivers::crashProneFamilies(),
      clh::deviceChildEnvironment(d));
  results.insert(results.end(), isolated.begin(), isolated.end());
  return drivers::makeColumn(d, std::move(results));
}

}  // namespace

void to_json(nlohmann::json& j, const SemanticsJob& job) {
  j = {{"device", job.device}, {"isolate_launch", job.isolate_launch}};
}

void from_json(const nlohmann::json& j, SemanticsJob& job) {
  job.device = j.at("device").get<std::string>();
  job.isolate_launch = j.value("isolate_launch", job.isolate_launch);
}

int runSemanticsChild(const clh::ToolConfig& config, const SemanticsJob& job,
                      clh::JobChannel& channel) {
  const std::vector<clh::DeviceInfo> selected = clh::findDevices(config, job.device);
  if (selected.empty()) return 3;
  channel.result(drivers::toJson(
      drivers::Matrix{deviceColumn(selected.front(), job.isolate_launch, {"semantics"})}));
  return 0;
}

namespace {

// A shard keeps every N-th device in the order of their identities: N jobs on a machine of many
// devices check each once. An exit code when the run ends here (a bad --shard, or nothing left
// for this shard), else nothing.
std::optional<int> keepShardOf(const SemanticsArgs& args, std::vector<clh::DeviceInfo>& selected) {
  clh::Shard shard;
  try {
    shard = clh::shardFromOption(args.shard);
  } catch (const std::invalid_argument& e) {
    std::cerr << "clharness semantics: " << e.what() << "\n";
    return 2;
  }
  if (shard.count > 1) {
    const size_t all = selected.size();
    selected = clh::keepShard(std::move(selected), shard,
                              [](const clh::DeviceInfo& d) { return d.identity(); });
    std::cerr << "clharness semantics: shard " << shard.index << "/" << shard.count << ": "
              << selected.size() << " of " << all << " device(s)\n";
    if (selected.empty()) return 0;  // more shards than devices: nothing is this one's
  }
  return std::nullopt;
}

// The baseline to compare with: a folder holds driver baselines (docs/semantics.md), one column
// per selected device in order; a file holds a matrix (or one column). Devices of no baseline go
// to `missing`.
drivers::Matrix readBaseline(const std::string& path, const drivers::Matrix& matrix,
                             const std::vector<clh::DeviceInfo>& selected,
                             std::vector<std::string>& missing) {
  if (!fs::is_directory(path)) return drivers::matrixFromJson(readJson(path));
  drivers::Matrix baseline;
  for (size_t i = 0; i < matrix.size(); ++i) {
    std::string note;
    if (auto b = clh::drivers::findBaseline(path, selected[i], &note)) {
      std::cout << "baseline of " << matrix[i].name << ": " << note << "\n";
      baseline.push_back(
          {matrix[i].slug, matrix[i].name, "", b->match.driver_version, std::move(b->checks)});
    } else {
      missing.push_back(matrix[i].slug + ": " + note);
    }
  }
  return baseline;
}

// Prints the changes against --baseline and writes the page with them; 1 when there are any.
int compareWithBaselines(const SemanticsArgs& args, const drivers::Matrix& matrix,
                         const std::vector<clh::DeviceInfo>& selected) {
  std::vector<std::string> missing;
  const drivers::Matrix baseline = readBaseline(args.baseline_path, matrix, selected, missing);
  size_t changes = 0;
  std::vector<std::vector<drivers::Change>> byColumn(matrix.size());
  std::cout << "\nchanges against the baseline:\n";
  for (size_t i = 0; i < matrix.size(); ++i) {
    const auto& col = matrix[i];
    auto it = std::find_if(baseline.begin(), baseline.end(),
                           [&](const drivers::DeviceColumn& b) { return b.slug == col.slug; });
    if (it == baseline.end()) {
      if (!fs::is_directory(args.baseline_path)) missing.push_back(col.slug);
      continue;
    }
    byColumn[i] = drivers::compareWithBaseline(col, *it);
    for (const auto& c : byColumn[i]) {
      std::cout << "  " << c.toString() << "\n";
      ++changes;
    }
  }
  writeHtml(args.html_path, matrix, &byColumn);
  for (const auto& m : missing) std::cout << "  no baseline for " << m << "\n";
  std::cout << "  " << changes << " change(s)\n";
  return changes ? 1 : 0;
}

}  // namespace

int runSemantics(const SemanticsArgs& args, const std::vector<std::string>& command_path,
                 const std::function<std::vector<clh::DeviceInfo>(const std::string&)>& devices) {
  std::vector<clh::DeviceInfo> selected = devices(args.device_regex);
  // Not in child mode, whose one device its parent chose.
  if (args.launch_family.empty())
    if (auto code = keepShardOf(args, selected)) return *code;
  if (selected.empty()) {
    std::cerr << "clharness semantics: no OpenCL device"
              << (args.device_regex.empty() ? "" : " matches '" + args.device_regex + "'") << "\n";
    return 3;
  }
  if (!args.launch_family.empty()) {
    // Child mode: one crash-prone family on the first device, rows as JSON on stdout.
    drivers::LaunchCheckOptions options;
    options.families = {args.launch_family};
    std::cout << drivers::launchRowsJson(drivers::runLaunchChecks(selected.front(), options))
              << "\n";
    return 0;
  }
  drivers::Matrix matrix;
  for (const auto& d : selected)
    matrix.push_back(deviceColumn(d, args.isolate_launch, command_path));
  std::cout << drivers::renderTable(matrix);

  if (!args.json_path.empty()) writeJson(args.json_path, drivers::toJson(matrix));
  if (!args.write_baselines.empty())
    for (size_t i = 0; i < matrix.size(); ++i) {
      // The driver checks' part of the device's baseline; a launch part already there is kept.
      auto [file, b] = clh::drivers::baselineToUpdate(args.write_baselines, selected[i]);
      b.checks = matrix[i].results;
      writeJson(file, clh::drivers::toJson(b));
    }

  if (args.baseline_path.empty()) {
    writeHtml(args.html_path, matrix, nullptr);
    return 0;
  }
  return compareWithBaselines(args, matrix, selected);
}

}  // namespace clh::drivers
