// One device's driver section in a check run (run/driver_section.hpp).
#include "run/driver_section.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <optional>

#include "cl/compile_watch.hpp"
#include "cl/driver_alone.hpp"
#include "cl/unit_environment.hpp"
#include "core/files.hpp"
#include "core/shell.hpp"
#include "drivers/command.hpp"
#include "drivers/launch_probes.hpp"
#include "drivers/matrix.hpp"
#include "proc/child.hpp"
#include "proc/gate.hpp"

namespace fs = std::filesystem;

namespace clh {

namespace {

// The driver checks (`clharness semantics`) of one device in a child process: a driver that
// takes its process down is a finding of the driver section, and the run goes on.
DriverRows runDriverRowsOnce(const ToolConfig& config, const DeviceInfo& dev,
                             const fs::path& scratch, double timeout_s, bool isolate_launch) {
  const fs::path out = scratch / fmt::format("driver-{}.jsonl", dev.slug());
  const drivers::SemanticsJob job{exactDeviceRegex(dev.displayName()), isolate_launch};
  ChildOptions co;
  co.timeout_s = timeout_s;
  co.env = deviceChildEnvironment(dev);  // its driver alone (cl/driver_alone.hpp)
  JobRun run;
  {
    RunGate::Turn beside(processRunGate(), false);  // a unit confirming a timeout runs alone
    run = runJob({config.exe}, "__semantics", job, out.string(), co);
  }
  const ChildOutcome& child = run.child;
  DriverRows r;
  try {
    if (const auto matrix = run.result<nlohmann::json>())
      for (const auto& col : drivers::matrixFromJson(*matrix))
        r.rows = col.results;  // the one device its identity names
  } catch (const std::exception& e) {
    r.notes.push_back(std::string("the driver checks' output could not be read: ") + e.what());
  }
  if (r.rows.empty()) {
    drivers::CheckResult crashed;
    crashed.id = "driver_checks";
    crashed.title = "the driver checks (clharness semantics) as a whole";
    crashed.verdict = drivers::Verdict::deviates;
    crashed.got = child.timed_out
                      ? fmt::format("the process hung (killed after {:.0f} s)", timeout_s)
                  : child.signal
                      ? "the process killed by " + signalName(child.signal)
                      : fmt::format("the process exited with code {} and no rows", child.exit_code);
    crashed.required = "every check ends with a result";
    crashed.detail = run.lastWords(3);
    r.rows.push_back(std::move(crashed));
  }
  return r;
}

// The driver checks; when the driver takes their process down, once more with every launch family
// in a process of its own, so the crash is pinned to its family and the other rows still come.
DriverRows runDriverRows(const ToolConfig& config, const DeviceInfo& dev, const fs::path& scratch,
                         double timeout_s) {
  DriverRows r = runDriverRowsOnce(config, dev, scratch, timeout_s, false);
  // An interrupt ended the process (the checks run beside the units): nothing to run again.
  if (r.rows.size() != 1 || r.rows[0].id != "driver_checks" || interruptRequested()) return r;
  const std::string first = r.rows[0].got;
  r = runDriverRowsOnce(config, dev, scratch, timeout_s, true);
  r.notes.push_back("the driver checks' process died (" + first +
                    "); they ran again with each launch family in a process of its own");
  return r;
}

// Regression mode: a driver finding that is new or regressed is looked at once more (the driver
// checks run again; a launch shape is replayed in a new process); one that then comes out
// otherwise is flaky, not a regression.
void recheck(const ToolConfig& config, const CheckOptions& o, const DeviceInfo& dev,
             const fs::path& scratch, const drivers::SectionInput& in, DriverReport& section,
             const std::deque<FamilyRun>& families) {
  std::optional<DriverRows> again;
  // The rerun of a launch failure: its first shape replayed; nullopt when the shape is not found.
  auto replayShape = [&](const std::string& id) -> std::optional<std::pair<bool, std::string>> {
    for (const auto& run : families)
      for (const auto& [key, shape] : drivers::driverFailures(run.result)) {
        if (drivers::failureId(key) != id) continue;
        LaunchRunOptions one;
        one.seed = o.seed;
        one.timeout_s = o.timeout_s;
        one.shape = shape->index;
        one.kinds = launch::kernelFamilies();
        const FamilyRun replay = runLaunchIsolated(config, one, *run.spec, dev, scratch);
        bool same = false;
        std::string got = replay.error;
        for (const auto& c : replay.result.shapes) {
          got = c.gotText();
          for (const auto& k : launch::failureKeys(c)) same |= k.sameKey(key);
        }
        return std::pair{same, got};
      }
    return std::nullopt;
  };
  // The rerun of a driver check: all of them once more, this one's row compared.
  auto rerunRow = [&](const std::string& id) -> std::optional<std::pair<bool, std::string>> {
    if (!again) again = runDriverRows(config, dev, scratch, o.timeout_s);
    auto byId = [&](const drivers::CheckResult& r) { return r.id == id; };
    const auto first = std::find_if(in.rows.begin(), in.rows.end(), byId);
    const auto next = std::find_if(again->rows.begin(), again->rows.end(), byId);
    if (first == in.rows.end() || next == again->rows.end()) return std::nullopt;
    return std::pair{drivers::sameOutcome(*first, *next),
                     next->verdict == drivers::Verdict::observed ? next->observed
                     : next->got.empty() ? std::string(drivers::toString(next->verdict))
                                         : next->got};
  };
  for (auto& f : section.findings) {
    if (!failsRegression(f.mark)) continue;
    const auto rerun = f.check.rfind("shape.", 0) == 0 ? replayShape(f.check) : rerunRow(f.check);
    if (!rerun) continue;
    if (!rerun->first) f.mark = BaselineMark::flaky;
    f.detail +=
        (f.detail.empty() ? "" : "; ") + (rerun->first ? std::string("the same again on a rerun")
                                                       : "a rerun gave: " + rerun->second);
  }
}

// What the units' processes ran with that the driver checks did not (cl/unit_environment.hpp),
// said on PoCL, the driver that reads it: its launch shapes' answers and its GFLOP/s come from
// code not specialised to each local size.
std::optional<std::string> unitSettingsNote(const DeviceInfo& dev, bool cases_isolated) {
  const std::vector<std::string> applied = unitDefaultsApplied();
  if (applied.empty() || dev.platform != "Portable Computing Language") return std::nullopt;
  std::string list;
  for (const auto& a : applied) list += (list.empty() ? "" : " ") + a;
  const std::string with =
      cases_isolated ? "the launch-shape units and the cases of specs whose build options name no "
                       "parameter"
                     : "the launch-shape units";
  const std::string without = cases_isolated
                                  ? "the driver checks, and the cases of specs that build a "
                                    "program per case, ran without it"
                                  : "the driver checks and the cases (--no-isolate: in this "
                                    "process) ran without it";
  return with + " ran with " + list +
         ", set by clharness where the environment does not set it: PoCL compiled one work-group "
         "function per kernel instead of one per local size, so their GFLOP/s are of code not "
         "specialised to a local size; " +
         without;
}

}  // namespace

DriverRows runDeviceDriverChecks(const ToolConfig& config, const CheckOptions& o,
                                 const DeviceInfo& dev, const fs::path& scratch) {
  const auto t0 = std::chrono::steady_clock::now();
  DriverRows rows = runDriverRows(config, dev, scratch, o.timeout_s);
  std::cerr << fmt::format(
      "[drivers] {}: {} driver checks ({:.2f}s)\n", dev.displayName(), rows.rows.size(),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return rows;
}

DriverReport deviceDriverSection(const ToolConfig& config, const CheckOptions& o,
                                 const DeviceInfo& dev, const drivers::Baseline* base,
                                 const std::string& baseline_note,
                                 const std::deque<FamilyRun>& fams, const fs::path& scratch,
                                 const DriverRows* driver_rows) {
  drivers::SectionInput in;
  in.device = &dev;
  if (driver_rows) {
    in.rows = driver_rows->rows;
    in.notes = driver_rows->notes;
  } else {
    in.notes.push_back("the driver checks did not run (--no-driver-checks)");
  }
  if (const auto note = unitSettingsNote(dev, o.isolate)) in.notes.push_back(*note);
  in.rows_replay = fmt::format("{} semantics --device {}", config.tool_name,
                               shellQuote(exactDeviceRegex(dev.displayName())));
  for (const auto& run : fams) in.families.push_back(&run.result);
  in.replay = [&config, &fams](const launch::LaunchFamilyResult& r, int shape) {
    for (const auto& run : fams)
      if (&run.result == &r) return launchReplay(config.tool_name, run, shape);
    return std::string();
  };
  DriverReport section = drivers::buildDriverReport(in, base, baseline_note);
  if (o.regression) recheck(config, o, dev, scratch, in, section, fams);
  if (!o.write_baseline.empty()) {
    const drivers::Baseline b = drivers::recordBaseline(in, base, o.per_model);
    const fs::path file = fs::path(o.write_baseline) / drivers::baselineFileName(b.match);
    fs::create_directories(file.parent_path());
    writeFileAtomically(file.string(), drivers::toJson(b).dump(2) + "\n");
    std::cerr << "clharness: recorded the baseline of " << dev.displayName() << " in " << file
              << "\n";
  }
  return section;
}

void addLaunchCompileCrashes(const std::vector<UnitResult>& units, DriverReport& section) {
  for (const auto& u : units) {
    if (u.device != section.device || u.status != Status::tool_error || !u.failing) continue;
    for (const auto& f : u.failing->findings) {
      if (!isLaunchCompileCrash(f.summary)) continue;
      DriverFinding d;
      d.check = "launch.compile_crash";
      d.title = "the driver's compiler crashed at a kernel's launch";
      d.verdict = DriverVerdict::crashed;
      d.got = f.summary;
      d.allowed = "a compiled kernel, or a build error reported by clBuildProgram";
      d.detail = fmt::format("{}, case {}", u.spec, formatSizes(u.failing->sizes));
      d.replay = u.replay;
      section.findings.push_back(std::move(d));
    }
  }
}

}  // namespace clh
