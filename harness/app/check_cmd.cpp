// `clharness check`: every spec on every selected device, each unit in its own process, then the
// terminal summary, JSON and JUnit reports and the exit code.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "app/app.hpp"
#include "app/isolate.hpp"
#include "app/launch_run.hpp"
#include "app/run_journal.hpp"
#include "cl/unit.hpp"
#include "core/files.hpp"
#include "core/reporters/reporters.hpp"
#include "core/shell.hpp"
#include "core/sizes.hpp"
#include "drivers/section.hpp"
#include "semantics/matrix.hpp"
#include "sim/check_fallback.hpp"
#include "sim/oclgrind_session.hpp"

namespace fs = std::filesystem;

namespace clh {

namespace {

constexpr const char* kVersion = "0.1.0";

// Loads every spec under `paths`; prints each error (file:line: ...) and returns false on any.
bool loadSpecs(const AppConfig& config, const std::vector<std::string>& paths,
               std::vector<Spec>& specs) {
  std::vector<std::string> files;
  try {
    files = findSpecFiles(paths);
  } catch (const SpecError& e) {
    std::cerr << "clharness: " << e.what() << "\n";
    return false;
  }
  if (files.empty()) {
    std::cerr << "clharness: no spec files (*.yaml) under the given paths\n";
    return false;
  }
  bool ok = true;
  for (const auto& f : files) {
    try {
      specs.push_back(loadSpec(f, config.repo_root));
    } catch (const SpecError& e) {
      std::cerr << "clharness: bad spec: " << e.what() << "\n";
      ok = false;
    }
  }
  return ok;
}

// A unit that ended without a result: crash, timeout, or a child that failed to start.
UnitResult lostUnit(const AppConfig& config, const Spec& spec, const DeviceInfo& dev,
                    const CheckOptions& o, const ChildOutcome& child,
                    const std::optional<Sizes>& lastSizes, int casesStarted) {
  UnitResult u = unitFor(spec, dev, o.seed);
  u.cases_run = casesStarted;
  u.expected = expectedFindings(spec, dev);
  Finding f;
  if (child.timed_out) {
    f.kind = FindingKind::timeout;
    f.summary = fmt::format("the unit ran past its {:.0f} s limit (a kernel that never ends?)",
                            o.timeout_s);
  } else if (child.signal && dev.simulator) {
    // The simulator checks every access; its process dying is the simulator's own failure.
    f.kind = FindingKind::tool_error;
    f.summary = fmt::format("the simulator {} crashed ({}): not the kernel's fault",
                            driverName(dev), signalName(child.signal));
  } else if (child.signal) {
    f.kind = FindingKind::crash;
    f.summary =
        fmt::format("the process running the kernel died from {}", signalName(child.signal));
  } else {
    f.kind = FindingKind::tool_error;
    f.summary =
        child.error.empty()
            ? fmt::format("the unit's process exited with code {} and no result", child.exit_code)
            : child.error;
  }
  f.device = u.device;
  CaseOutcome c;
  if (lastSizes) c.sizes = *lastSizes;
  c.findings.push_back(f);
  u.failing = c;
  u.status = classify(c, u.expected);
  if (lastSizes)
    u.replay = replayCommand(config.tool_name, spec.file, u.device, o.seed, *lastSizes);
  u.message = lastSizes ? "during the case " + formatSizes(*lastSizes) + " (not shrunk further)"
                        : "before any case ran";
  return u;
}

// One process for the unit; `skip` leaves some of the simulator's checks off. `transient`: it ended
// with no result for no reason of the kernel's; `signalled`: it died from a signal.
UnitResult runIsolatedOnce(const AppConfig& config, const Spec& spec, const DeviceInfo& dev,
                           const CheckOptions& o, const fs::path& scratch,
                           const std::vector<OclgrindCheck>& skip, bool* transient,
                           bool* signalled) {
  fs::path out = scratch / fmt::format("unit-{}-{}.jsonl", dev.slug(), spec.name);
  fs::remove(out);
  std::vector<std::string> argv = {config.exe,    "__unit",
                                   "--spec",      spec.file,
                                   "--device-id", dev.identity(),
                                   "--seed",      std::to_string(o.seed),
                                   "--cases",     std::to_string(o.cases),
                                   "--out",       out.string()};
  if (o.sizes) argv.insert(argv.end(), {"--sizes", *o.sizes});
  argv.insert(argv.end(), {"--buffer-mode", o.buffer_mode, "--read-mode", o.read_mode});
  if (!o.shrink) argv.push_back("--no-shrink");
  ChildOutcome child = runChild(withSkippedChecks(argv, skip), o.timeout_s);
  *signalled = child.signal != 0;

  std::optional<Sizes> lastSizes;
  std::optional<UnitResult> result;
  int started = 0;
  std::string error;
  std::ifstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) continue;  // a line cut short by a crash
    std::string ev = j.value("event", "");
    if (ev == "case_start") {
      lastSizes = j["sizes"].get<Sizes>();
      ++started;
    } else if (ev == "result") {
      result = j["unit"].get<UnitResult>();
    } else if (ev == "error") {
      error = j.value("message", "");
    }
  }
  const std::string lastWords = lastLines(out.string() + ".stderr", 20);
  std::error_code ec;
  fs::remove(out, ec);
  fs::remove(out.string() + ".stderr", ec);
  if (result && !child.timed_out && !child.signal) return *result;
  // A process that ended with no result, no signal and no message of its own (a symbol lookup
  // error while the dynamic loader set it up, a busy file system) may do better a second time.
  *transient = !result && !child.timed_out && !child.signal && error.empty() && started == 0;
  if (!error.empty()) child.error = error;
  UnitResult u = lostUnit(config, spec, dev, o, child, lastSizes, started);
  if (!lastWords.empty() && u.failing && !u.failing->findings.empty())
    u.failing->findings.front().raw = "the process's last words on stderr:\n" + lastWords + "\n";
  return u;
}

UnitResult runIsolated(const AppConfig& config, const Spec& spec, const DeviceInfo& dev,
                       const CheckOptions& o, const fs::path& scratch) {
  bool transient = false, signalled = false;
  UnitResult u;
  if (dev.simulator) {
    // Oclgrind dying with one of its checks on is the simulator's failure: the unit runs again
    // without that check, so the others still look (the unit's observations say which could not).
    std::optional<UnitResult> first;
    const CheckFallbackOutcome fb =
        runWithCheckFallback([&](const std::vector<OclgrindCheck>& skip) {
          u = runIsolatedOnce(config, spec, dev, o, scratch, skip, &transient, &signalled);
          if (!first) first = u;
          return signalled;
        });
    if (fb.crashed) u = *first;
  } else {
    u = runIsolatedOnce(config, spec, dev, o, scratch, {}, &transient, &signalled);
  }
  if (!transient) return u;
  const std::string first = u.failing && !u.failing->findings.empty()
                                ? u.failing->findings.front().summary +
                                      (u.failing->findings.front().raw.empty()
                                           ? ""
                                           : " (" + u.failing->findings.front().raw + ")")
                                : u.message;
  bool again = false;
  u = runIsolatedOnce(config, spec, dev, o, scratch, {}, &again, &signalled);
  u.observations.push_back(
      "flaky: the unit's first process ended with no result and was run once more (clharness or "
      "the machine, not the kernel): " +
      first);
  return u;
}

// The driver checks (`clharness semantics`) of one device in a child process: a driver that
// takes its process down is a finding of the driver section, and the run goes on.
struct DriverRows {
  std::vector<semantics::CheckResult> rows;
  std::vector<std::string> notes;
};

DriverRows runDriverRowsOnce(const AppConfig& config, const DeviceInfo& dev,
                             const fs::path& scratch, double timeout_s, bool isolate_launch) {
  const fs::path out = scratch / fmt::format("driver-{}.json", dev.slug());
  fs::remove(out);
  const fs::path err = scratch / fmt::format("driver-{}.stderr", dev.slug());
  std::vector<std::string> argv = {"/bin/sh",
                                   "-c",
                                   "exec \"$0\" \"$@\" 2>\"" + err.string() + "\" >/dev/null",
                                   config.exe,
                                   "semantics",
                                   "--device",
                                   exactDeviceRegex(dev.displayName()),
                                   "--json",
                                   out.string()};
  if (isolate_launch) argv.push_back("--isolate-launch");
  const ChildOutcome child = runChild(argv, timeout_s);
  DriverRows r;
  std::ifstream in(out);
  if (in) {
    try {
      for (const auto& col : semantics::matrixFromJson(nlohmann::json::parse(in)))
        r.rows = col.results;  // the one device its identity names
    } catch (const std::exception& e) {
      r.notes.push_back(std::string("the driver checks' output could not be read: ") + e.what());
    }
  }
  if (r.rows.empty()) {
    semantics::CheckResult crashed;
    crashed.id = "driver_checks";
    crashed.title = "the driver checks (clharness semantics) as a whole";
    crashed.verdict = semantics::Verdict::deviates;
    crashed.got = child.timed_out
                      ? fmt::format("the process hung (killed after {:.0f} s)", timeout_s)
                  : child.signal
                      ? "the process killed by " + signalName(child.signal)
                      : fmt::format("the process exited with code {} and no rows", child.exit_code);
    crashed.required = "every check ends with a result";
    crashed.detail = lastLines(err.string(), 3);
    r.rows.push_back(std::move(crashed));
  }
  std::error_code ec;
  fs::remove(out, ec);
  fs::remove(err, ec);
  return r;
}

// The driver checks; when the driver takes their process down, once more with every launch family
// in a process of its own, so the crash is pinned to its family and the other rows still come.
DriverRows runDriverRows(const AppConfig& config, const DeviceInfo& dev, const fs::path& scratch,
                         double timeout_s) {
  DriverRows r = runDriverRowsOnce(config, dev, scratch, timeout_s, false);
  if (r.rows.size() != 1 || r.rows[0].id != "driver_checks") return r;
  const std::string first = r.rows[0].got;
  r = runDriverRowsOnce(config, dev, scratch, timeout_s, true);
  r.notes.push_back("the driver checks' process died (" + first +
                    "); they ran again with each launch family in a process of its own");
  return r;
}

// Regression mode: a driver finding that is new or regressed is looked at once more (the driver
// checks run again; a launch shape is replayed in a new process); one that then comes out
// otherwise is flaky, not a regression.
void recheck(const AppConfig& config, const CheckOptions& o, const DeviceInfo& dev,
             const fs::path& scratch, const drivers::SectionInput& in, DriverReport& section,
             const std::deque<FamilyRun>& families) {
  std::optional<DriverRows> again;
  // The rerun of a launch failure: its first shape replayed; nullopt when the shape is not found.
  auto replayShape = [&](const std::string& id) -> std::optional<std::pair<bool, std::string>> {
    for (const auto& run : families)
      for (const auto& [key, shape] : drivers::driverFailures(run.result)) {
        if (drivers::failureId(key) != id) continue;
        LaunchRunOptions one;
        one.seed_text = std::to_string(o.seed);
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
    auto byId = [&](const semantics::CheckResult& r) { return r.id == id; };
    const auto first = std::find_if(in.rows.begin(), in.rows.end(), byId);
    const auto next = std::find_if(again->rows.begin(), again->rows.end(), byId);
    if (first == in.rows.end() || next == again->rows.end()) return std::nullopt;
    return std::pair{drivers::sameOutcome(*first, *next),
                     next->verdict == semantics::Verdict::observed ? next->observed
                     : next->got.empty() ? std::string(semantics::toString(next->verdict))
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

// The journal of a run that writes a report: beside it ("" when it writes none).
std::string journalPath(const CheckOptions& o) {
  if (!o.json_path.empty()) return o.json_path + ".journal";
  if (!o.junit_path.empty()) return o.junit_path + ".journal";
  return "";
}

// What a resumed run must share with the run it resumes, for its units to be the same.
nlohmann::json journalOptions(const CheckOptions& o) {
  return {{"seed", o.seed},
          {"cases", o.cases},
          {"sizes", o.sizes.value_or("")},
          {"buffer_mode", o.buffer_mode},
          {"read_mode", o.read_mode},
          {"launch_shapes", o.launch_shapes},
          {"shrink", o.shrink}};
}

}  // namespace

bool parseSeed(const std::string& text, uint64_t& out) {
  try {
    size_t used = 0;
    out = std::stoull(text, &used, 0);
    return used == text.size();
  } catch (const std::exception&) {
    return false;
  }
}

std::unique_ptr<OclgrindSession> simulatorSession(const DeviceInfo& dev,
                                                  const std::string& logPath) {
  if (!dev.simulator) return nullptr;
  std::string plugin = findOclgrindPlugin();
  if (plugin.empty()) {
    std::string looked;
    for (const auto& c : oclgrindPluginCandidates()) looked += (looked.empty() ? "" : ", ") + c;
    throw std::runtime_error("the simulator's diagnostics plugin was not found (looked in " +
                             looked + "): race and memory checks cannot run");
  }
  auto session = std::make_unique<OclgrindSession>(plugin, logPath);
  session->applyToProcess();
  return session;
}

std::vector<RunOptions> runModes(const std::string& bufferMode, const std::string& readMode) {
  std::vector<std::optional<BufferMode>> buffers;
  std::vector<std::optional<ReadMode>> reads;
  if (bufferMode == "default")
    buffers.push_back(std::nullopt);
  else if (bufferMode == "all")
    buffers.assign(allBufferModes().begin(), allBufferModes().end());
  else if (auto m = bufferModeFromString(bufferMode))
    buffers.push_back(*m);
  else
    throw std::invalid_argument("--buffer-mode: unknown mode '" + bufferMode + "'");
  if (readMode == "default")
    reads.push_back(std::nullopt);
  else if (readMode == "all")
    reads.assign(allReadModes().begin(), allReadModes().end());
  else if (auto m = readModeFromString(readMode))
    reads.push_back(*m);
  else
    throw std::invalid_argument("--read-mode: unknown mode '" + readMode + "'");
  std::vector<RunOptions> out;
  for (const auto& b : buffers)
    for (const auto& r : reads) {
      // Filled in place: GCC 12 warns (wrongly) that a copied RunOptions may be uninitialised.
      RunOptions& ro = out.emplace_back();
      if (b) ro.buffers = *b;
      ro.read = r;
    }
  return out;
}

namespace {

// What a unit runs with, from the options of `check` or of its child (the same fields).
template <class Options>
UnitOptions unitOptions(const AppConfig& config, const Options& o) {
  UnitOptions uo;
  uo.seed = o.seed;
  uo.cases = o.cases;
  uo.shrink = o.shrink;
  uo.tool = config.tool_name;
  uo.modes = runModes(o.buffer_mode, o.read_mode);
  if (o.sizes) uo.sizes = parseSizes(*o.sizes);
  return uo;
}

}  // namespace

int runCheck(const AppConfig& config, const CheckOptions& o) {
  std::vector<std::string> paths = o.paths;
  if (paths.empty()) paths.push_back((fs::path(config.repo_root) / "specs").string());
  std::vector<Spec> specs;
  if (!loadSpecs(config, paths, specs)) return kExitUsage;
  try {
    runModes(o.buffer_mode, o.read_mode);
    if (o.sizes) parseSizes(*o.sizes);
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

  // Interrupts and the journal (app/run_journal.hpp): finished units are kept, whatever ends the
  // run.
  installInterruptHandlers();
  RunJournal journal;
  if (const std::string jpath = journalPath(o); !jpath.empty()) {
    const std::string why = journal.open(jpath, journalOptions(o), o.resume);
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
    std::cerr << "clharness: --resume needs --json or --junit (the journal is kept beside the "
                 "report)\n";
    return kExitUsage;
  }

  Report report;
  report.tool_version = kVersion;
  report.seed = o.seed;
  report.regression_mode = o.regression;
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
  std::mutex journal_lock;  // the journal is shared by the threads
  auto fromJournal = [&](const char* family, const Spec& spec, const DeviceInfo& dev) {
    std::lock_guard<std::mutex> lock(journal_lock);
    return journal.take(unitKey(family, spec.file, dev.displayName()));
  };
  auto keep = [&](const UnitResult& u) {
    std::lock_guard<std::mutex> lock(journal_lock);
    journal.append(u);
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
      u = runIsolated(config, spec, dev, o, scratch);
      if (interruptRequested()) return;  // its child was ended: not a result
    } else {
      if (!sessions[d]) {
        sims[d] = simulatorSession(dev, (scratch / ("oclgrind-" + dev.slug() + ".jsonl")).string());
        sessions[d] = std::make_unique<DeviceSession>(dev, sims[d].get());
      }
      u = runUnit(*sessions[d], spec, unitOptions(config, o));
    }
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
    if (auto done_before = fromJournal("launch", spec, dev)) {
      slot.launch = std::move(*done_before);
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
    keep(*slot.launch);
    announce(*slot.launch, "shapes");
  };
  // Units run on `jobs` threads, each waiting on its own child processes. A GPU takes one unit at
  // a time (its timings and memory stay its own); CPU drivers and the simulator take any number.
  const size_t jobs = o.isolate ? std::max(1, o.jobs) : 1;
  std::vector<int> busy(devices.size(), 0);
  std::vector<bool> started(slots.size(), false);
  std::mutex m;
  std::condition_variable cv;
  size_t remaining = slots.size();
  auto worker = [&] {
    for (;;) {
      size_t t = slots.size();
      {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] {
          if (remaining == 0 || interruptRequested()) return true;
          for (size_t i = 0; i < slots.size(); ++i) {
            const size_t d = i % devices.size();
            if (!started[i] && (devices[d].kind != DeviceKind::gpu || busy[d] == 0)) {
              t = i;
              return true;
            }
          }
          return false;
        });
        if (t == slots.size()) return;
        started[t] = true;
        --remaining;
        ++busy[t % devices.size()];
      }
      runTask(t);
      {
        std::lock_guard<std::mutex> lock(m);
        --busy[t % devices.size()];
      }
      cv.notify_all();
    }
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < jobs; ++i) threads.emplace_back(worker);
  worker();
  for (auto& th : threads) th.join();
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
    for (size_t d = 0; d < devices.size() && !interruptRequested(); ++d) {
      const DeviceInfo& dev = devices[d];
      drivers::SectionInput in;
      in.device = &dev;
      if (driver_checks) {
        const auto t0 = std::chrono::steady_clock::now();
        DriverRows rows = runDriverRows(config, dev, scratch, o.timeout_s);
        in.rows = std::move(rows.rows);
        in.notes = std::move(rows.notes);
        std::cerr << fmt::format(
            "[drivers] {}: {} driver checks ({:.2f}s)\n", dev.displayName(), in.rows.size(),
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      } else {
        in.notes.push_back("the driver checks did not run (--no-driver-checks)");
      }
      in.rows_replay = fmt::format("{} semantics --device {}", config.tool_name,
                                   shellQuote(exactDeviceRegex(dev.displayName())));
      for (const auto& run : families[d]) in.families.push_back(&run.result);
      const auto& fams = families[d];
      in.replay = [&config, &fams](const launch::LaunchFamilyResult& r, int shape) {
        for (const auto& run : fams)
          if (&run.result == &r) return launchReplay(config.tool_name, run, shape);
        return std::string();
      };
      const drivers::Baseline* base = baselines[d] ? &*baselines[d] : nullptr;
      DriverReport section = drivers::buildDriverReport(in, base, baseline_notes[d]);
      if (o.regression) recheck(config, o, dev, scratch, in, section, fams);
      report.drivers.push_back(std::move(section));
      if (!o.write_baseline.empty()) {
        const drivers::Baseline b = drivers::recordBaseline(in, base, o.per_model);
        const fs::path file = fs::path(o.write_baseline) / drivers::baselineFileName(b.match);
        fs::create_directories(file.parent_path());
        writeFileAtomically(file.string(), drivers::toJson(b).dump(2) + "\n");
        std::cerr << "clharness: recorded the baseline of " << dev.displayName() << " in " << file
                  << "\n";
      }
    }
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);

  writeConsoleReport(std::cout, report);
  if (const int sig = interruptRequested()) {
    const Incompleteness why{sig, total};
    std::cout << interruptedLine(report, why, journal.isOpen() ? journal.path() : "");
    writeReportFiles(report, o.json_path, o.junit_path, why);
    return interruptExitCode();
  }
  if (writeReportFiles(report, o.json_path, o.junit_path, std::nullopt)) journal.finish();
  return reportPasses(report) ? kExitOk : kExitCheckFailed;
}

int runUnitChild(const AppConfig& config, const UnitChildOptions& o) {
  std::FILE* out = std::fopen(o.out.c_str(), "w");
  if (!out) {
    std::cerr << "clharness: cannot write " << o.out << "\n";
    return kExitUsage;
  }
  // The driver's and the simulator's own messages (Oclgrind prints each error it reports, up to
  // a thousand) go to a file: the plugin already hands them over as findings, and the parent
  // quotes the file's end when this process dies.
  redirectStderr(o.out + ".stderr");
  try {
    Spec spec = loadSpec(o.spec_file, config.repo_root);
    const DeviceInfo found = findDeviceAgain(config, o.device_id);
    const DeviceInfo* dev = &found;
    std::unique_ptr<OclgrindSession> sim = simulatorSession(*dev, o.out + ".oclgrind.jsonl");
    DeviceSession session(*dev, sim.get());
    UnitOptions uo = unitOptions(config, o);
    uo.on_case_start = [out](const Sizes& s) {
      writeJsonLine(out, {{"event", "case_start"}, {"sizes", s}});
    };
    UnitResult u = runUnit(session, spec, uo);
    writeJsonLine(out, {{"event", "result"}, {"unit", u}});
    if (sim) std::filesystem::remove(sim->logPath());
  } catch (const std::exception& e) {
    writeJsonLine(out, {{"event", "error"}, {"message", e.what()}});
    std::fclose(out);
    return kExitUsage;
  }
  std::fclose(out);
  return kExitOk;
}

int runCtestScript(const AppConfig& config, const std::vector<std::string>& paths,
                   const std::string& exe) {
  std::vector<Spec> specs;
  if (!loadSpecs(config, paths, specs)) return kExitUsage;
  auto devices = findDevices(config, "");
  auto q = [](const std::string& s) {
    std::string out = "[==[";
    out += s;
    return out + "]==]";
  };
  if (devices.empty()) {
    std::cout << "add_test(" << q("spec.no-device") << " " << q(exe) << " devices)\n";
    std::cout << "set_tests_properties(" << q("spec.no-device")
              << " PROPERTIES SKIP_RETURN_CODE 3 LABELS \"spec\")\n";
    return kExitOk;
  }
  for (const auto& spec : specs) {
    for (const auto& d : devices) {
      std::string name = "spec." + spec.name + "." + d.slug();
      const std::string regex = exactDeviceRegex(d.displayName());
      // The driver checks have tests of their own (tests/semantics, tests/drivers).
      std::cout << "add_test(" << q(name) << " " << q(exe) << " check " << q(spec.file)
                << " --device " << q(regex) << " --no-driver-checks)\n";
      std::string labels = "spec;" + std::string(toString(d.kind));
      if (d.simulator)
        labels += ";simulator";
      else
        labels += ";device";
      std::cout << "set_tests_properties(" << q(name) << " PROPERTIES LABELS \"" << labels
                << "\" SKIP_RETURN_CODE 3 TIMEOUT 900)\n";
    }
  }
  return kExitOk;
}

}  // namespace clh
