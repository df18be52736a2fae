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
#include "run/scheduler.hpp"
#include "run/sim_replay.hpp"
#include "run/units.hpp"

namespace fs = std::filesystem;

namespace clh {

namespace {

constexpr const char* kVersion = kClharnessVersionString;  // "0.1.0 (git 16aaa8e)"

// The journal of a run that writes a report: beside it ("" when it writes none).
std::string journalPath(const CheckOptions& o) {
  if (!o.reports.empty()) return o.reports.front().path + ".journal";
  return "";
}

std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// What a resumed run must share with the run it resumes, for its units to be the same: its
// options, and each spec's text with its kernel's ("inputs": spec file -> hash), so that a journal
// written before a spec or a kernel was edited is refused rather than its old verdicts reused.
nlohmann::json journalOptions(const CheckOptions& o, const std::vector<Spec>& specs) {
  nlohmann::json inputs = nlohmann::json::object();
  for (const auto& s : specs)
    inputs[s.file] = fmt::format(
        "{:016x}", hash64(fileBytes(s.file) + '\0' + fileBytes(s.source_path), 0x6a6f75726eull));
  return {{"inputs", inputs},
          {"seed", o.seed},
          {"cases", o.cases},
          {"sizes", o.sizes.value_or("")},
          {"buffer_mode", o.buffer_mode},
          {"read_mode", o.read_mode},
          {"launch_shapes", o.launch_shapes},
          {"shrink", o.shrink}};
}
}  // namespace

int runCheck(const ToolConfig& config, const CheckOptions& o) {
  std::vector<std::string> paths = o.paths;
  if (paths.empty()) paths.push_back((fs::path(config.repo_root) / "specs").string());
  std::vector<Spec> specs;
  if (!loadSpecs(config, paths, specs)) return kExitUsage;
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
    return kExitUsage;
  }
  auto devices = findDevices(config, o.device_regex);
  if (devices.empty()) {
    std::cerr << "clharness: no usable device"
              << (o.device_regex.empty() ? "" : " matches --device '" + o.device_regex + "'")
              << "; `clharness devices` lists what was found\n";
    return kExitNoDevice;
  }

  const bool launches = o.launch_shapes > 0 && !o.sizes;
  const bool driver_checks = o.driver_checks && !o.sizes;
  LaunchRunOptions lo;
  lo.shapes = o.launch_shapes;
  lo.seed_text = std::to_string(o.seed);
  lo.timeout_s = o.timeout_s;
  lo.kinds = launch::kernelFamilies();

  // Each device's baseline: marks in the driver section, and in regression mode the verdict.
  const std::string baseline_dir =
      o.baseline_dir.empty() ? (fs::path(config.repo_root) / "baselines").string() : o.baseline_dir;
  std::vector<std::optional<drivers::Baseline>> baselines(devices.size());
  std::vector<std::string> baseline_notes(devices.size());
  if (driver_checks || launches) {
    try {
      for (size_t d = 0; d < devices.size(); ++d)
        baselines[d] = drivers::findBaseline(baseline_dir, devices[d], &baseline_notes[d]);
    } catch (const std::exception& e) {
      std::cerr << "clharness: --baseline: " << e.what() << "\n";
      return kExitUsage;
    }
  }

  // Interrupts and the journal (run/journal.hpp): finished units are kept, whatever ends the
  // run.
  installInterruptHandlers();
  RunJournal journal;
  if (const std::string jpath = journalPath(o); !jpath.empty()) {
    const std::string why = journal.open(jpath, journalOptions(o, specs), o.resume);
    if (!why.empty() && o.resume) {
      std::cerr << "clharness: --resume: " << why << "\n";
      return kExitUsage;
    }
    if (!why.empty())
      std::cerr << "clharness: " << why << ": this run keeps no journal (it cannot be resumed)\n";
    else if (journal.resumed())
      std::cerr << fmt::format("clharness: resuming: {} finished units in {}\n", journal.resumed(),
                               jpath);
  } else if (o.resume) {
    std::cerr
        << "clharness: --resume needs --json, --junit or --report (the journal is kept beside the "
           "report)\n";
    return kExitUsage;
  }

  Report report;
  report.tool_version = kVersion;
  report.seed = o.seed;
  report.regression_mode = o.regression;
  if (o.shard_count > 1) report.shard = fmt::format("{}/{}", o.shard_index, o.shard_count);
  for (const auto& d : devices) report.devices.push_back(d.displayName());
  fs::path scratch = fs::temp_directory_path() / fmt::format("clharness-{}", getpid());
  fs::create_directories(scratch);
  const size_t total = specs.size() * devices.size() * (launches ? 2 : 1);
  size_t done = 0;
  std::mutex progress;  // the [n/total] lines, written as units finish
  auto announce = [&](const UnitResult& u, const char* what, bool from_journal = false) {
    std::lock_guard<std::mutex> lock(progress);
    ++done;
    std::cerr << fmt::format("[{}/{}] {} on {}: {} ({} {}, {})\n", done, total, u.title(), u.device,
                             toString(u.status), u.cases_run, what,
                             from_journal ? "from the journal" : fmt::format("{:.2f}s", u.seconds));
  };
  std::vector<std::unique_ptr<OclgrindSession>> sims(devices.size());
  std::vector<std::unique_ptr<DeviceSession>> sessions(devices.size());
  // One task per spec x device: its cases, then its launch shapes. Slots keep the report in spec
  // and device order whatever order the tasks end in.
  struct Slot {
    std::optional<UnitResult> cases, launch;
    std::optional<FamilyRun> family;
  };
  std::vector<Slot> slots(specs.size() * devices.size());
  const std::optional<DeviceInfo> simulator =
      o.replay_budget_s > 0 ? anySimulator(devices) : std::nullopt;
  std::mutex journal_lock;  // the journal is shared by the threads
  auto fromJournal = [&](const char* family, const Spec& spec, const DeviceInfo& dev,
                         nlohmann::json* extra = nullptr) {
    std::lock_guard<std::mutex> lock(journal_lock);
    return journal.take(unitKey(family, spec.file, dev.displayName()), extra);
  };
  auto keep = [&](const UnitResult& u, const nlohmann::json& extra = nullptr) {
    std::lock_guard<std::mutex> lock(journal_lock);
    journal.append(u, extra);
  };
  auto runTask = [&](size_t t) {
    const Spec& spec = specs[t / devices.size()];
    const size_t d = t % devices.size();
    const DeviceInfo& dev = devices[d];
    Slot& slot = slots[t];
    UnitResult u;
    const std::optional<UnitResult> earlier = fromJournal("cases", spec, dev);
    if (earlier) {
      u = *earlier;  // finished by the run this one resumes
    } else if (o.isolate) {
      u = runUnitIsolated(config, spec, dev, o, scratch);
      if (interruptRequested()) return;  // its child was ended: not a result
    } else {
      if (!sessions[d]) {
        sims[d] = simulatorSession(dev, (scratch / ("oclgrind-" + dev.slug() + ".jsonl")).string());
        sessions[d] = std::make_unique<DeviceSession>(dev, sims[d].get());
      }
      u = runUnit(*sessions[d], spec, unitOptions(config, o));
    }
    // A fault the simulator never ran (a crash or wrong results, often at a size beyond its range)
    // is replayed there at its smallest case, to name the statement and the kind.
    if (!earlier && o.isolate && simulator && worthReplayingOnSimulator(u, dev) &&
        !interruptRequested())
      explainOnSimulator(config, o, spec, *simulator, std::min(o.timeout_s, o.replay_budget_s),
                         scratch, u);
    if (!earlier) keep(u);
    announce(u, "cases", earlier.has_value());
    slot.cases = std::move(u);
    if (!launches) return;
    // A kernel that never ends would hang under the launch shapes too.
    const auto& c = *slot.cases;
    const bool hung =
        c.failing && std::any_of(c.failing->findings.begin(), c.failing->findings.end(),
                                 [](const Finding& f) { return f.kind == FindingKind::timeout; });
    // On the simulator a kernel whose published bug the spec expects there would show it under
    // every shape, at the bug's sizes (minutes of interpretation), and the simulator's own launch
    // rules are probed once per device by the driver checks: nothing is learnt per spec.
    const bool broken_on_sim = dev.simulator && !expectedFindings(spec, dev).empty();
    nlohmann::json family;  // the launch family of a unit the resumed run finished
    if (auto done_before = fromJournal("launch", spec, dev, &family)) {
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
      return;
    }
    if (hung || broken_on_sim) {
      slot.launch = unitFor(spec, dev, o.seed, "launch");
      slot.launch->status = Status::skipped;
      slot.launch->message =
          hung ? "no launch shape ran: the spec's cases ran past the time limit"
               : "no launch shape ran on the simulator: the spec expects its kernel's published "
                 "bug here, which every launch would show; the simulator's launch rules are "
                 "probed once by the driver checks";
    } else {
      // Always in child processes: a shape may kill the driver's process, and the next child
      // goes on after it.
      FamilyRun run = runLaunchIsolated(config, lo, spec, dev, scratch);
      if (interruptRequested()) return;  // its children were ended: not a result
      slot.family = std::move(run);
      slot.launch = launchUnit(config, *slot.family, o.seed);
    }
    keep(*slot.launch, slot.family ? launch::toJson(slot.family->result, true) : nullptr);
    announce(*slot.launch, "shapes");
  };
  // Units run on `jobs` threads, each waiting on its own child processes. A GPU takes one unit at
  // a time (its timings and memory stay its own); a CPU driver `cpu_device_jobs` (0: any number);
  // the simulator any number.
  TaskPool pool;
  pool.tasks = slots.size();
  pool.jobs = o.isolate ? static_cast<size_t>(std::max(1, o.jobs)) : 1;
  pool.resource_of = [&](size_t t) { return t % devices.size(); };
  pool.capacity = [&](size_t d) -> size_t {
    if (devices[d].kind == DeviceKind::gpu) return 1;
    if (devices[d].kind == DeviceKind::cpu)
      return static_cast<size_t>(std::max(0, o.cpu_device_jobs));
    return 0;
  };
  pool.stop = [] { return interruptRequested() != 0; };
  runTasks(pool, runTask);
  // The launch families of each device, for its driver section.
  std::vector<std::deque<FamilyRun>> families(devices.size());
  for (size_t t = 0; t < slots.size(); ++t) {
    if (slots[t].cases) report.units.push_back(std::move(*slots[t].cases));
    if (slots[t].launch) report.units.push_back(std::move(*slots[t].launch));
    if (slots[t].family) families[t % devices.size()].push_back(std::move(*slots[t].family));
  }
  sessions.clear();  // contexts go before the simulator sessions they report to
  sims.clear();

  // The driver section: once per device, the driver checks, and the launch families' failures
  // that are the driver's; marked against the device's baseline.
  if ((driver_checks || launches) && !interruptRequested()) {
    for (size_t d = 0; d < devices.size() && !interruptRequested(); ++d)
      report.drivers.push_back(
          deviceDriverSection(config, o, devices[d], baselines[d] ? &*baselines[d] : nullptr,
                              baseline_notes[d], families[d], scratch, driver_checks));
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);

  writeConsoleReport(std::cout, report);
  if (const int sig = interruptRequested()) {
    report.interrupted_by = signalName(sig);
    report.units_planned = total;
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
}  // namespace clh
