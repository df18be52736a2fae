// `clharness check` as a library call (run/check.hpp): the specs and devices, the journal, the
// units on a pool of threads, each device's driver section, then the reports.
#include "run/check.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>

#include "core/replay_sizes.hpp"
#include "core/run_folders.hpp"
#include "core/shard.hpp"
#include "core/sizes.hpp"
#include "core/version.hpp"
#include "drivers/baseline.hpp"
#include "launch/json.hpp"
#include "launch/run.hpp"
#include "proc/child.hpp"
#include "report/reporters.hpp"
#include "run/driver_section.hpp"
#include "run/journal.hpp"
#include "run/prebuild.hpp"
#include "run/sanitize_unit.hpp"
#include "run/scheduler.hpp"
#include "run/sim_replay.hpp"
#include "run/units.hpp"

namespace fs = std::filesystem;

namespace clh {

namespace {

constexpr const char* kVersion = kClharnessVersionString;  // "0.1.0 (git 16aaa8e)"

// The specs of the run: loaded, kept to this shard, and checked against the modes and --sizes;
// false (after the message) on a usage error.
bool checkSpecs(const ToolConfig& config, const CheckOptions& o, std::vector<Spec>& specs) {
  std::vector<std::string> paths = o.paths;
  if (paths.empty()) paths.push_back((fs::path(config.repo_root) / "specs").string());
  if (!loadSpecs(config, paths, specs)) return false;
  // A shard keeps every N-th spec, in the order of their names: N jobs on N machines cover each
  // spec (on each of their devices) exactly once, whatever order the file system lists them in.
  if (o.shard_count > 1) {
    specs = keepShard(std::move(specs), Shard{o.shard_index, o.shard_count},
                      [](const Spec& s) { return s.name; });
    std::cerr << fmt::format("clharness: shard {}/{}: {} spec(s)\n", o.shard_index, o.shard_count,
                             specs.size());
  }
  try {
    runModes(o.buffer_mode, o.read_mode);
    if (o.sizes)
      for (const auto& spec : specs) parseSizesFor(spec, *o.sizes);
  } catch (const std::invalid_argument& e) {
    std::cerr << "clharness: " << e.what() << "\n";
    return false;
  }
  return true;
}

// Each device's baseline: marks in the driver section, and in regression mode the verdict. False
// (after the message) when a baseline cannot be read.
bool findBaselines(const ToolConfig& config, const CheckOptions& o,
                   const std::vector<DeviceInfo>& devices,
                   std::vector<std::optional<drivers::Baseline>>& baselines,
                   std::vector<std::string>& notes) {
  const std::string dir =
      o.baseline_dir.empty() ? (fs::path(config.repo_root) / "baselines").string() : o.baseline_dir;
  baselines.resize(devices.size());
  notes.resize(devices.size());
  try {
    for (size_t d = 0; d < devices.size(); ++d)
      baselines[d] = drivers::findBaseline(dir, devices[d], &notes[d]);
  } catch (const std::exception& e) {
    std::cerr << "clharness: --baseline: " << e.what() << "\n";
    return false;
  }
  return true;
}

// Whether a run has launch families, and driver checks: neither when it replays one case
// (--sizes).
bool runsLaunchFamilies(const CheckOptions& o) {
  return o.launch_shapes > 0 && !o.sizes;
}
bool runsDriverChecks(const CheckOptions& o) {
  return o.driver_checks && !o.sizes;
}

// One run of `clharness check` once its specs, devices, baselines and journal are settled: one
// task per spec x device (its cases, then its launch shapes) and one per device for its driver
// checks, on a pool of threads; then each device's driver section, then the reports.
class CheckRun {
 public:
  CheckRun(const ToolConfig& config, const CheckOptions& o, const std::vector<Spec>& specs,
           const std::vector<DeviceInfo>& devices, RunJournal& journal)
      : config_(config),
        o_(o),
        specs_(specs),
        devices_(devices),
        journal_(journal),
        launches_(runsLaunchFamilies(o)),
        driver_checks_(runsDriverChecks(o)),
        total_(specs.size() *
               (devices.size() * (launches_ ? 2 : 1) + (o.sanitize ? realDevices(devices) : 0))),
        slots_(specs.size() * devices.size()),
        driver_rows_(devices.size()),
        sims_(devices.size()),
        sessions_(devices.size()),
        simulator_(o.replay_budget_s > 0 ? anySimulator(devices) : std::nullopt),
        ahead_(specs, devices, o.seed, launches_, launches_ ? 2 : 1, o.isolate && o.compile_ahead) {
    lo_.shapes = o.launch_shapes;
    lo_.seed = o.seed;
    lo_.timeout_s = o.timeout_s;
    lo_.kinds = launch::kernelFamilies();
    scratch_ = fs::temp_directory_path() / fmt::format("clharness-{}", getpid());
    fs::create_directories(scratch_);
    holdRunFolder(scratch_.string());  // a later run removes it if this one is killed
  }

  bool launches() const { return launches_; }
  /// Device d's driver checks, once runAll() ran them (null with --no-driver-checks or when an
  /// interrupt came first).
  const DriverRows* driverRows(size_t d) const {
    return driver_rows_[d] ? &*driver_rows_[d] : nullptr;
  }
  size_t total() const { return total_; }
  const fs::path& scratch() const { return scratch_; }

  // Units run on `jobs` threads, each waiting on its own child processes. A GPU takes one unit at
  // a time (its timings and memory stay its own); a CPU driver `cpu_device_jobs` (0: any number);
  // the simulator any number.
  void runAll() {
    TaskPool pool;
    pool.tasks = firstAheadTask() + ahead_.tasks();
    pool.jobs = o_.isolate ? static_cast<size_t>(std::max(1, o_.jobs)) : 1;
    pool.resource_of = [&](size_t t) { return resourceOf(t); };
    if (ahead_.tasks())  // a slot waits for its spec's programs on its device
      pool.ready = [&](size_t t) {
        return t >= slots_.size() || ahead_.ready(t % devices_.size(), t / devices_.size());
      };
    pool.capacity = [&](size_t d) -> size_t {
      if (d >= devices_.size()) return 0;  // compiling ahead: it launches nothing
      if (devices_[d].kind == DeviceKind::gpu) return 1;
      if (devices_[d].kind == DeviceKind::cpu)
        return static_cast<size_t>(std::max(0, o_.cpu_device_jobs));
      return 0;
    };
    pool.order = taskOrder();
    pool.stop = [] { return interruptRequested() != 0; };
    runTasks(pool, [this](size_t t) { runTask(t); });
  }

  // Compiling ahead first (the units it holds start as their programs come). Then the devices'
  // driver checks: they ran after every unit, one device at a time, while the other cores idled
  // (PoCL's, compiling a work-group function per local size with its kernel cache empty, took 27 s
  // of the main job's 171). Then each device's tasks in turn, as in spec
  // order, but the simulator's own largest case first: an interpreter takes seconds per million
  // operations, and the two such units of the main job, a third of its warm run, started in its
  // middle and held its end. The other devices keep spec order and their place in each turn (a
  // GPU, one task at a time, is not left idle behind the simulator's). Only the order work starts
  // in: the report keeps spec and device order.
  std::vector<size_t> taskOrder() const {
    const size_t n = devices_.size();
    std::vector<size_t> order;
    for (size_t a = 0; a < ahead_.tasks(); ++a) order.push_back(firstAheadTask() + a);
    if (driver_checks_)
      for (size_t d = 0; d < n; ++d) order.push_back(slots_.size() + d);
    std::vector<std::vector<size_t>> own(n);  // each device's tasks
    for (size_t t = 0; t < slots_.size(); ++t) own[t % n].push_back(t);
    for (size_t d = 0; d < n; ++d) {
      if (!devices_[d].simulator) continue;
      std::vector<double> cost(slots_.size(), 0);
      for (size_t t : own[d]) cost[t] = flopsOfLargestSimulatorCase(specs_[t / n]);
      std::stable_sort(own[d].begin(), own[d].end(),
                       [&](size_t a, size_t b) { return cost[a] > cost[b]; });
    }
    for (size_t turn = 0; turn < specs_.size(); ++turn)  // each device has one task a spec
      for (size_t d = 0; d < n; ++d) order.push_back(own[d][turn]);
    return order;
  }

  // The units into the report in spec and device order; the launch families of each device, for
  // its driver section.
  std::vector<std::deque<FamilyRun>> collect(Report& report) {
    std::vector<std::deque<FamilyRun>> families(devices_.size());
    for (size_t t = 0; t < slots_.size(); ++t) {
      if (slots_[t].cases) report.units.push_back(std::move(*slots_[t].cases));
      if (slots_[t].launch) report.units.push_back(std::move(*slots_[t].launch));
      if (slots_[t].sanitize) report.units.push_back(std::move(*slots_[t].sanitize));
      if (slots_[t].family) families[t % devices_.size()].push_back(std::move(*slots_[t].family));
    }
    sessions_.clear();  // contexts go before the simulator sessions they report to
    sims_.clear();
    return families;
  }

 private:
  // A task's results; slots keep the report in spec and device order whatever order the tasks
  // end in.
  struct Slot {
    std::optional<UnitResult> cases, launch, sanitize;
    std::optional<FamilyRun> family;
  };

  static size_t realDevices(const std::vector<DeviceInfo>& devices) {
    return static_cast<size_t>(std::count_if(devices.begin(), devices.end(),
                                             [](const DeviceInfo& d) { return !d.simulator; }));
  }

  // The tasks: a slot for each spec x device, then each device's driver checks (with them on),
  // then compiling ahead on each device of ahead_.
  size_t checksTasks() const { return driver_checks_ ? devices_.size() : 0; }
  size_t firstAheadTask() const { return slots_.size() + checksTasks(); }
  // A slot's or driver checks' device; compiling ahead is a resource of its own (past the
  // devices), so a GPU's units start as their programs come.
  size_t resourceOf(size_t t) const {
    if (t < slots_.size()) return t % devices_.size();
    if (t < firstAheadTask()) return t - slots_.size();
    return devices_.size() + (t - firstAheadTask());
  }

  // Device d's programs compiled ahead in one process (run/prebuild.hpp), and its line.
  void compileAheadTask(size_t a) {
    const PrebuildOutcome out = ahead_.run(a, config_, scratch_, o_.timeout_s);
    if (interruptRequested()) return;
    std::lock_guard<std::mutex> lock(progress_);
    std::cerr << out.line(devices_[ahead_.deviceOf(a)].displayName()) << "\n";
  }

  void runTask(size_t t) {
    if (t >= firstAheadTask()) {
      compileAheadTask(t - firstAheadTask());
      return;
    }
    if (t >= slots_.size()) {
      const size_t d = t - slots_.size();
      DriverRows rows = runDeviceDriverChecks(config_, o_, devices_[d], scratch_);
      if (!interruptRequested()) driver_rows_[d] = std::move(rows);  // else its child was ended
      return;
    }
    const Spec& spec = specs_[t / devices_.size()];
    const size_t d = t % devices_.size();
    if (!runCases(spec, d, slots_[t])) return;
    if (launches_) runLaunchShapes(spec, devices_[d], slots_[t]);
    if (o_.sanitize && !devices_[d].simulator && !interruptRequested())
      runSanitized(spec, devices_[d], slots_[t]);
  }

  // A unit of `family` that did not run, and why (its row says so).
  UnitResult skippedUnit(const Spec& spec, const DeviceInfo& dev, const char* family,
                         const char* why) const {
    UnitResult u = unitFor(spec, dev, o_.seed, family);
    u.status = Status::skipped;
    u.message = why;
    return u;
  }

  // The spec's sanitized unit on a real device: from the journal, skipped, or run in child
  // processes.
  void runSanitized(const Spec& spec, const DeviceInfo& dev, Slot& slot) {
    if (auto earlier = fromJournal("sanitize", spec, dev)) {
      slot.sanitize = std::move(*earlier);
      announce(*slot.sanitize, "sanitized", true);
      return;
    }
    if (const char* why = whyNotSanitized(dev, *slot.cases)) {
      slot.sanitize = skippedUnit(spec, dev, "sanitize", why);
    } else {
      UnitResult u = runSanitizedUnitIsolated(config_, spec, dev, o_, scratch_);
      if (interruptRequested()) return;  // its child was ended: not a result
      slot.sanitize = std::move(u);
    }
    keep(*slot.sanitize);
    announce(*slot.sanitize, "sanitized");
  }

  // The spec's cases on device d, from the journal or run now; false when an interrupt ended them.
  bool runCases(const Spec& spec, size_t d, Slot& slot) {
    const DeviceInfo& dev = devices_[d];
    UnitResult u;
    const std::optional<UnitResult> earlier = fromJournal("cases", spec, dev);
    if (earlier) {
      u = *earlier;  // finished by the run this one resumes
    } else if (o_.isolate) {
      u = runUnitIsolated(config_, spec, dev, o_, scratch_);
      if (interruptRequested()) return false;  // its child was ended: not a result
    } else {
      u = runUnit(sessionFor(d), spec, unitOptions(config_, o_));
    }
    // A fault the simulator never ran (a crash or wrong results, often at a size beyond its range)
    // is replayed there at its smallest case, to name the statement and the kind.
    if (!earlier && o_.isolate && simulator_ && worthReplayingOnSimulator(u, dev) &&
        !interruptRequested())
      explainOnSimulator(config_, o_, spec, *simulator_, std::min(o_.timeout_s, o_.replay_budget_s),
                         scratch_, u);
    if (!earlier) keep(u);
    announce(u, "cases", earlier.has_value());
    slot.cases = std::move(u);
    return true;
  }

  // The session of device d for a run without child processes, made when first needed.
  DeviceSession& sessionFor(size_t d) {
    if (!sessions_[d]) {
      const DeviceInfo& dev = devices_[d];
      sims_[d] = simulatorSession(dev, (scratch_ / ("oclgrind-" + dev.slug() + ".jsonl")).string());
      sessions_[d] = std::make_unique<DeviceSession>(dev, sims_[d].get());
    }
    return *sessions_[d];
  }

  // The spec's launch shapes on the device: from the journal, skipped, or run in child processes.
  void runLaunchShapes(const Spec& spec, const DeviceInfo& dev, Slot& slot) {
    if (launchesFromJournal(spec, dev, slot)) return;
    if (const char* why = whyNoLaunchShapes(spec, dev, *slot.cases)) {
      slot.launch = skippedUnit(spec, dev, "launch", why);
    } else {
      // Always in child processes: a shape may kill the driver's process, and the next child
      // goes on after it.
      FamilyRun run = runLaunchIsolated(config_, lo_, spec, dev, scratch_);
      if (interruptRequested()) return;  // its children were ended: not a result
      slot.family = std::move(run);
      slot.launch = launchUnit(config_, *slot.family, o_.seed);
    }
    keep(*slot.launch, slot.family ? launch::toJson(slot.family->result, true) : nullptr);
    announce(*slot.launch, "shapes");
  }

  // The launch unit a resumed run finished, with its family when the journal kept it.
  bool launchesFromJournal(const Spec& spec, const DeviceInfo& dev, Slot& slot) {
    nlohmann::json family;  // the launch family of a unit the resumed run finished
    auto done_before = fromJournal("launch", spec, dev, &family);
    if (!done_before) return false;
    slot.launch = std::move(*done_before);
    if (family.is_object()) try {  // its driver-charged failures belong in the driver section
        FamilyRun run;
        run.spec = &spec;
        run.device = &dev;
        run.result = launch::familyFromJson(family);
        slot.family = std::move(run);
      } catch (const std::exception&) {  // a line another version wrote: the unit stays
      }
    announce(*slot.launch, "shapes", true);
    return true;
  }

  // Why the spec's launch shapes are not run on the device, or null when they are.
  static const char* whyNoLaunchShapes(const Spec& spec, const DeviceInfo& dev,
                                       const UnitResult& cases) {
    // A kernel that never ends would hang under the launch shapes too.
    const bool hung = cases.failing &&
                      std::any_of(cases.failing->findings.begin(), cases.failing->findings.end(),
                                  [](const Finding& f) { return f.kind == FindingKind::timeout; });
    // On the simulator a kernel whose published bug the spec expects there would show it under
    // every shape, at the bug's sizes (minutes of interpretation), and the simulator's own launch
    // rules are probed once per device by the driver checks: nothing is learnt per spec.
    const bool broken_on_sim = dev.simulator && !expectedFindings(spec, dev).empty();
    if (hung) return "no launch shape ran: the spec's cases ran past the time limit";
    if (broken_on_sim)
      return "no launch shape ran on the simulator: the spec expects its kernel's published "
             "bug here, which every launch would show; the simulator's launch rules are "
             "probed once by the driver checks";
    return nullptr;
  }

  std::optional<UnitResult> fromJournal(const char* family, const Spec& spec, const DeviceInfo& dev,
                                        nlohmann::json* extra = nullptr) {
    std::lock_guard<std::mutex> lock(journal_lock_);
    return journal_.take(unitKey(family, spec.file, dev.displayName()), extra);
  }
  void keep(const UnitResult& u, const nlohmann::json& extra = nullptr) {
    std::lock_guard<std::mutex> lock(journal_lock_);
    journal_.append(u, extra);
  }
  // The [n/total] lines, written as units finish.
  void announce(const UnitResult& u, const char* what, bool from_journal = false) {
    std::lock_guard<std::mutex> lock(progress_);
    ++done_;
    std::cerr << fmt::format("[{}/{}] {} on {}: {} ({} {}, {})\n", done_, total_, u.title(),
                             u.device, toString(u.status), u.cases_run, what,
                             from_journal ? "from the journal" : fmt::format("{:.2f}s", u.seconds));
  }

  const ToolConfig& config_;
  const CheckOptions& o_;
  const std::vector<Spec>& specs_;
  const std::vector<DeviceInfo>& devices_;
  RunJournal& journal_;
  const bool launches_;
  const bool driver_checks_;
  const size_t total_;
  LaunchRunOptions lo_;
  fs::path scratch_;
  std::vector<Slot> slots_;
  std::vector<std::optional<DriverRows>> driver_rows_;  // written by one task each
  std::vector<std::unique_ptr<OclgrindSession>> sims_;
  std::vector<std::unique_ptr<DeviceSession>> sessions_;
  const std::optional<DeviceInfo> simulator_;
  AheadCompiles ahead_;
  std::mutex journal_lock_;  // the journal is shared by the threads
  std::mutex progress_;
  size_t done_ = 0;
};

// The report printed and written in each format asked for; the run's exit code.
int finishReports(const CheckOptions& o, Report& report, RunJournal& journal, size_t planned) {
  writeConsoleReport(std::cout, report);
  if (const int sig = interruptRequested()) {
    report.interrupted_by = signalName(sig);
    report.units_planned = planned;
    std::cout << interruptedLine(report, journal.isOpen() ? journal.path() : "");
    writeReportOutputs(report, o.reports);
    return interruptExitCode();
  }
  // A report that could not be written fails the run whatever its verdicts (the message names the
  // file and the OS's reason); the journal stays, for a --resume once there is room.
  if (!writeReportOutputs(report, o.reports)) return kExitUsage;
  journal.finish();
  return reportPasses(report) ? kExitOk : kExitCheckFailed;
}

}  // namespace

int runCheck(const ToolConfig& config, const CheckOptions& o) {
  std::vector<Spec> specs;
  if (!checkSpecs(config, o, specs)) return kExitUsage;
  auto devices = findDevices(config, o.device_regex);
  if (devices.empty()) {
    std::cerr << "clharness: no usable device"
              << (o.device_regex.empty() ? "" : " matches --device '" + o.device_regex + "'")
              << "; `clharness devices` lists what was found\n";
    return kExitNoDevice;
  }
  const bool launches = runsLaunchFamilies(o);
  const bool driver_checks = runsDriverChecks(o);
  std::vector<std::optional<drivers::Baseline>> baselines(devices.size());
  std::vector<std::string> baseline_notes(devices.size());
  if ((driver_checks || launches) && !findBaselines(config, o, devices, baselines, baseline_notes))
    return kExitUsage;
  installInterruptHandlers();
  RunJournal journal;
  if (!openCheckJournal(o, specs, journal)) return kExitUsage;

  Report report;
  report.tool_version = kVersion;
  report.seed = o.seed;
  report.regression_mode = o.regression;
  if (o.shard_count > 1) report.shard = fmt::format("{}/{}", o.shard_index, o.shard_count);
  for (const auto& d : devices) report.devices.push_back(d.displayName());
  CheckRun run(config, o, specs, devices, journal);
  run.runAll();
  std::vector<std::deque<FamilyRun>> families = run.collect(report);

  // The driver section: once per device, the driver checks, and the launch families' failures
  // that are the driver's; marked against the device's baseline. Its compiler's crashes at a
  // launch, which are tool errors of the units, are listed there too.
  if ((driver_checks || launches) && !interruptRequested()) {
    for (size_t d = 0; d < devices.size() && !interruptRequested(); ++d) {
      report.drivers.push_back(
          deviceDriverSection(config, o, devices[d], baselines[d] ? &*baselines[d] : nullptr,
                              baseline_notes[d], families[d], run.scratch(), run.driverRows(d)));
      addLaunchCompileCrashes(report.units, report.drivers.back());
    }
  }
  std::error_code ec;
  fs::remove_all(run.scratch(), ec);
  return finishReports(o, report, journal, run.total());
}
}  // namespace clh
