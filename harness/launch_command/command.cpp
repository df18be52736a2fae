// `clharness launch` and its child `__launch` (launch_command/command.hpp).
#include "launch_command/command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "cl/build_hook.hpp"
#include "cl/unit.hpp"
#include "core/files.hpp"
#include "core/result.hpp"
#include "core/sizes.hpp"
#include "drivers/baseline.hpp"
#include "launch/family.hpp"
#include "launch/json.hpp"
#include "launch/known.hpp"
#include "launch/run.hpp"
#include "proc/child.hpp"
#include "sim/oclgrind_session.hpp"

namespace fs = std::filesystem;

namespace clh::launch {

namespace {

using clh::launch::LaunchFamilyResult;
using clh::launch::ShapeCheck;

// ---- the child: one spec on one device, from shape `first` on, JSON lines to `out` ----------

// ---- the parent -------------------------------------------------------------------------------

using clh::FamilyRun;

std::string shortName(const clh::DeviceInfo& d) {
  return d.name.size() > 28 ? d.name.substr(0, 28) : d.name;
}

void printReport(std::ostream& os, const std::vector<FamilyRun>& runs,
                 const std::vector<clh::DeviceInfo>& devices,
                 const std::map<std::string, clh::launch::KnownDeviations>& known) {
  os << "KERNEL: shapes that had to run and failed as the spec expects of its kernel (an "
        "as-published bug)\ndevices:\n";
  for (size_t i = 0; i < devices.size(); ++i)
    os << fmt::format(
        "  [{}] {} ({}; baseline {})\n", i + 1, devices[i].displayName(), devices[i].version,
        known.at(devices[i].slug()).found ? known.at(devices[i].slug()).file : "none");
  os << fmt::format("\n{:<44} {:>3} {:>6} {:>7} {:>7} {:>7} {:>8} {:>5} {:>4} {:>4} {:>6}\n",
                    "SPEC", "DEV", "SHAPES", "CONFORM", "DEVIATE", "CHECKED", "MISMATCH", "KNOWN",
                    "NEW", "DIED", "KERNEL");
  for (const auto& run : runs) {
    const auto& r = run.result;
    const auto& k = known.at(run.device->slug());
    const size_t dev = std::find_if(devices.begin(), devices.end(),
                                    [&](const clh::DeviceInfo& d) {
                                      return d.displayName() == run.device->displayName();
                                    }) -
                       devices.begin() + 1;
    int checked = 0;
    for (const auto& c : r.shapes) checked += c.results_checked;
    const int fresh = clh::newFailures(r, k);
    os << fmt::format(
        "{:<44} {:>3} {:>6} {:>7} {:>7} {:>7} {:>8} {:>5} {:>4} {:>4} {:>6}{}\n", r.spec,
        "[" + std::to_string(dev) + "]", r.shapes.size(), r.conforming(), r.deviating(), checked,
        r.mismatching(), clh::failingShapes(r) - fresh, fresh, r.died(), r.specExpected(),
        r.failure
            ? (clh::unexpectedFailure(run) ? "  NOT RUN: " : "  not run (as the spec expects): ") +
                  r.failure->summary
        : !run.error.empty() ? "  stopped: " + run.error
                             : "");
  }
  bool header = false;
  for (const auto& run : runs) {
    const auto& r = run.result;
    const auto groups = clh::launch::groupFailures(r, known.at(run.device->slug()));
    if (groups.empty()) continue;
    if (!header)
      os << "\nfailures (predicted by the specification's rules vs got; results vs the "
            "reference), by rule:\n";
    header = true;
    os << fmt::format("{} on [{}] {}:\n", r.spec,
                      std::find_if(devices.begin(), devices.end(),
                                   [&](const clh::DeviceInfo& d) {
                                     return d.displayName() == run.device->displayName();
                                   }) -
                          devices.begin() + 1,
                      shortName(*run.device));
    for (const auto& g : groups) {
      const ShapeCheck& first = *g.shapes.front();
      if (g.key.results.empty())
        os << fmt::format("  {} {:>3}x {} {}: predicted {}; got {}\n", g.known ? "known" : "NEW  ",
                          g.shapes.size(), g.key.kind, g.key.rule,
                          first.prediction.allowedToString(), first.gotText());
      else
        os << fmt::format("  {} {:>3}x {} {}: got {} and the results disagree ({}): {}\n",
                          g.known ? "known" : "NEW  ", g.shapes.size(), g.key.kind, g.key.rule,
                          first.gotText(), g.key.results, first.result_findings.front().summary);
      os << fmt::format("          e.g. #{} {}\n", first.index, first.text);
    }
  }
}

}  // namespace

int runChildFamily(const clh::ToolConfig& config, const clh::LaunchJob& a,
                   clh::JobChannel& channel) {
  const clh::Spec spec = clh::loadSpec(a.spec, config.repo_root);
  const clh::DeviceInfo found = clh::findDeviceAgain(config, a.device_id);
  const clh::DeviceInfo* dev = &found;
  // On request, Oclgrind's race and memory checks join the result checks, as in `clharness
  // check` (they make it several times slower, and the check family runs them anyway).
  std::unique_ptr<clh::OclgrindSession> sim;
  if (a.simulator_checks) sim = clh::simulatorSession(*dev, channel.path() + ".oclgrind.jsonl");
  clh::DeviceSession session(*dev, sim.get());
  // A compile is the machine's step, timed apart from the shapes (launch/run.cpp).
  clh::setBuildHook([&channel](bool building) { channel.send(clh::buildEventName(building)); });
  const clh::Sizes sizes = clh::launch::launchCaseSizes(spec, dev->simulator, a.seed);

  clh::launch::LaunchFamilyOptions options;
  options.first_shape = a.first;
  options.stop_after_failed_command = true;  // the parent goes on in a new process
  // A kernel whose spec expects its published bug here shows that bug in every launch that
  // runs: checking their results again teaches nothing (and on the simulator costs minutes at
  // the bug's sizes). The enqueue outcomes are still checked.
  const bool known_broken = !clh::expectedFindings(spec, *dev).empty();
  options.check_results = !a.no_results && !known_broken;
  options.kinds = a.kinds;
  options.on_ready = [&channel](const LaunchFamilyResult& r) {
    channel.send("ready", {{"family", clh::launch::toJson(r, false)}});
  };
  options.on_shape_start = [&channel](const ShapeCheck& c, const char* phase) {
    channel.send("start", {{"phase", phase}, {"check", clh::launch::toJson(c)}});
  };
  options.on_shape_done = [&channel](const ShapeCheck& c) {
    channel.send("shape", {{"check", clh::launch::toJson(c)}});
  };
  options.skip_must_run = a.skip_must_run;
  options.on_shape_not_run = [&channel](const ShapeCheck& c) {
    channel.send("not_run", {{"index", c.index}});
  };
  LaunchFamilyResult r =
      clh::launch::runLaunchFamily(session, spec, sizes, a.shapes, a.seed, options);
  r.shapes.clear();  // already sent one by one
  if (known_broken && !a.no_results)
    r.notes.push_back(
        "results of the launches that ran were not checked: the spec expects its kernel's "
        "published bug on this device, which every launch would show");
  if (r.restart_at)
    channel.send("restart", {{"next", *r.restart_at}});
  else
    channel.send("done", {{"family", clh::launch::toJson(r, false)}});
  if (sim) fs::remove(sim->logPath());
  return clh::kExitOk;
}

namespace {

using KnownMap = std::map<std::string, clh::launch::KnownDeviations>;

// The specs under the given paths (the repository's specs/ by default); an exit code on failure.
int loadLaunchSpecs(const clh::ToolConfig& config, const LaunchArgs& args,
                    std::vector<clh::Spec>& specs) {
  std::vector<std::string> paths = args.paths;
  if (paths.empty()) paths.push_back((fs::path(config.repo_root) / "specs").string());
  try {
    for (const auto& f : clh::findSpecFiles(paths))
      specs.push_back(clh::loadSpec(f, config.repo_root));
  } catch (const clh::SpecError& e) {
    std::cerr << "clharness launch: " << e.what() << "\n";
    return clh::kExitUsage;
  }
  if (specs.empty()) {
    std::cerr << "clharness launch: no spec files (*.yaml) under the given paths\n";
    return clh::kExitUsage;
  }
  return clh::kExitOk;
}

// Each device's known deviations, from its baseline where one is found (an empty set where not).
KnownMap loadKnown(const std::string& baseline_dir, const std::vector<clh::DeviceInfo>& devices) {
  KnownMap known;
  for (const auto& d : devices) {
    if (auto b = clh::drivers::findBaseline(baseline_dir, d)) {
      known[d.slug()] = clh::drivers::knownDeviations(*b, d);
    } else {
      known[d.slug()].slug = d.slug();
      known[d.slug()].device = d.displayName();
    }
  }
  return known;
}

// Every spec on every device, each family in its own children, a progress line per family.
std::vector<FamilyRun> runFamilies(const clh::ToolConfig& config,
                                   const clh::LaunchRunOptions& run_options,
                                   const std::vector<clh::Spec>& specs,
                                   const std::vector<clh::DeviceInfo>& devices) {
  const fs::path scratch = fs::temp_directory_path() / fmt::format("clharness-launch-{}", getpid());
  fs::create_directories(scratch);
  std::vector<FamilyRun> runs;
  const size_t total = specs.size() * devices.size();
  for (const auto& spec : specs)
    for (const auto& dev : devices) {
      runs.push_back(clh::runLaunchIsolated(config, run_options, spec, dev, scratch));
      const auto& r = runs.back().result;
      const size_t not_run = runs.back().not_run.size();
      std::cerr << fmt::format(
          "[{}/{}] {} on {}: {} shapes, {} conforming, {} died{} ({:.1f} s){}\n", runs.size(),
          total, spec.name, dev.displayName(), r.shapes.size(), r.conforming(), r.died(),
          not_run
              ? fmt::format(", {} not launched after the spec's expected crash repeated", not_run)
              : "",
          runs.back().seconds, r.failure ? " (not run)" : "");
    }
  std::error_code ec;
  fs::remove_all(scratch, ec);
  return runs;
}

struct LaunchTotals {
  int fresh = 0, mismatches = 0, broken = 0;
};

LaunchTotals totalsOf(const std::vector<FamilyRun>& runs, const KnownMap& known) {
  LaunchTotals t;
  for (const auto& run : runs) {
    t.fresh += clh::newFailures(run.result, known.at(run.device->slug()));
    t.mismatches += run.result.mismatching();
    t.broken += !run.error.empty() || clh::unexpectedFailure(run);
  }
  return t;
}

// The --json file: the devices, each family's summary and the totals; an exit code.
int writeLaunchJson(const LaunchArgs& args, uint64_t seed, const std::string& baseline_dir,
                    const std::vector<clh::DeviceInfo>& devices, const std::vector<FamilyRun>& runs,
                    const KnownMap& known, const LaunchTotals& t) {
  nlohmann::json j = {{"command", "clharness launch"},
                      {"seed", seed},
                      {"shapes_per_spec", args.run.shape >= 0 ? 1 : args.run.shapes},
                      {"baselines", baseline_dir}};
  j["devices"] = nlohmann::json::array();
  for (const auto& d : devices)
    j["devices"].push_back({{"name", d.displayName()},
                            {"slug", d.slug()},
                            {"version", d.version},
                            {"driver_version", d.driver_version}});
  j["families"] = nlohmann::json::array();
  for (const auto& run : runs) {
    const auto& k = known.at(run.device->slug());
    auto s = clh::launch::summaryJson(run.result, k.found ? &k : nullptr);
    s["restarts"] = run.restarts;
    s["fresh_starts"] = run.fresh_starts;
    s["seconds"] = std::round(run.seconds * 10) / 10;
    s["error"] = run.error;
    j["families"].push_back(std::move(s));
  }
  j["totals"] = {
      {"runs", runs.size()}, {"new_failures", t.fresh}, {"result_mismatches", t.mismatches}};
  try {  // whole or not at all, with the OS's reason
    clh::writeFileAtomically(args.json_path, j.dump(1) + "\n");
  } catch (const std::exception& e) {
    std::cerr << "clharness launch: " << e.what() << "\n";
    return clh::kExitUsage;
  }
  return clh::kExitOk;
}

// --write-baselines: this run's deviations join the launch part of each device's baseline.
int writeLaunchBaselines(const std::string& dir, const std::vector<clh::DeviceInfo>& devices,
                         const std::vector<FamilyRun>& runs, const KnownMap& known) {
  std::vector<LaunchFamilyResult> results;
  for (const auto& run : runs) results.push_back(run.result);
  for (const auto& d : devices) {
    // Entries already there stay (another spec set, other families), and so does the driver
    // checks' part.
    auto [file, b] = clh::drivers::baselineToUpdate(dir, d);
    for (auto& e : clh::launch::collectDeviations(results, d, known.at(d.slug())).entries)
      if (std::none_of(b.launch.begin(), b.launch.end(),
                       [&](const clh::launch::KnownDeviation& k) { return k.sameKey(e); }))
        b.launch.push_back(std::move(e));
    try {
      clh::writeFileAtomically(file, clh::drivers::toJson(b).dump(2) + "\n");
    } catch (const std::runtime_error& e) {
      std::cerr << "clharness launch: " << e.what() << "\n";
      return clh::kExitUsage;
    }
  }
  return clh::kExitOk;
}

}  // namespace

int runLaunch(const clh::ToolConfig& config, const LaunchArgs& args) {
  uint64_t seed = 1;
  if (!clh::parseSeed(args.seed_text, seed)) {
    std::cerr << "clharness launch: --seed: '" << args.seed_text
              << "' is not an unsigned integer\n";
    return clh::kExitUsage;
  }
  clh::LaunchRunOptions run_options = args.run;
  run_options.seed = seed;
  std::vector<clh::Spec> specs;
  if (int rc = loadLaunchSpecs(config, args, specs); rc != clh::kExitOk) return rc;
  const auto devices = clh::findDevices(config, args.device_regex);
  if (devices.empty()) {
    std::cerr << "clharness launch: no usable device"
              << (args.device_regex.empty() ? "" : " matches --device '" + args.device_regex + "'")
              << "; `clharness devices` lists what was found\n";
    return clh::kExitNoDevice;
  }
  const std::string baseline_dir = args.baseline_dir.empty()
                                       ? (fs::path(config.repo_root) / "baselines").string()
                                       : args.baseline_dir;
  KnownMap known;
  try {
    known = loadKnown(baseline_dir, devices);
  } catch (const std::exception& e) {
    std::cerr << "clharness launch: " << e.what() << "\n";
    return clh::kExitUsage;
  }
  const std::vector<FamilyRun> runs = runFamilies(config, run_options, specs, devices);
  printReport(std::cout, runs, devices, known);
  const LaunchTotals t = totalsOf(runs, known);
  std::cout << fmt::format(
      "\n{} spec x device runs; {} shape(s) with a failure no baseline "
      "records; {} with results that disagree, known ones included{}\n",
      runs.size(), t.fresh, t.mismatches,
      t.broken ? fmt::format(", {} run(s) stopped early", t.broken) : "");
  if (!args.json_path.empty())
    if (int rc = writeLaunchJson(args, seed, baseline_dir, devices, runs, known, t);
        rc != clh::kExitOk)
      return rc;
  if (!args.write_baselines.empty())
    if (int rc = writeLaunchBaselines(args.write_baselines, devices, runs, known);
        rc != clh::kExitOk)
      return rc;
  return t.fresh || t.broken ? clh::kExitCheckFailed : clh::kExitOk;
}

}  // namespace clh::launch
