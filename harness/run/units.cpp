// A unit in a process of its own, both sides: the parent reads the child's JSON lines and names
// what ended it; the child (job `__unit`) runs the spec's cases in its own OpenCL session.
#include "run/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cl/build_hook.hpp"
#include "cl/compile_watch.hpp"
#include "cl/driver_alone.hpp"
#include "cl/unit_environment.hpp"
#include "core/files.hpp"
#include "core/sizes.hpp"
#include "proc/child.hpp"
#include "proc/gate.hpp"
#include "sanitize/cases.hpp"
#include "sim/check_fallback.hpp"

namespace fs = std::filesystem;

namespace clh {

bool loadSpecs(const ToolConfig& config, const std::vector<std::string>& paths,
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

namespace {

// A unit that ended without a result: crash, timeout, or a child that failed to start.
UnitResult lostUnit(const ToolConfig& config, const Spec& spec, const DeviceInfo& dev,
                    const CheckOptions& o, const ChildOutcome& child,
                    const std::optional<Sizes>& lastSizes, int casesStarted,
                    std::optional<bool> plainKernelBuilds,
                    const std::optional<std::vector<size_t>>& compileCrashLocal) {
  UnitResult u = unitFor(spec, dev, o.seed);
  u.cases_run = casesStarted;
  u.expected = expectedFindings(spec, dev);
  Finding f;
  if (child.timed_out) {
    f.kind = FindingKind::timeout;
    f.summary = fmt::format("the unit ran past its {:.0f} s limit (a kernel that never ends?)",
                            o.timeout_s);
  } else if (child.signal && plainKernelBuilds && *plainKernelBuilds) {
    // The compiler died on this kernel and builds a plain one on the same device: the source
    // provoked it (docs/semantics.md, "A compiler that crashes").
    f.kind = FindingKind::build_error;
    f.summary = fmt::format(
        "the compiler of {} crashed ({}) while building this kernel; a plain kernel builds on the "
        "same device, so something in the source provokes it (a `#pragma clang` line, macros or "
        "nesting too deep?)",
        driverName(dev), signalName(child.signal));
  } else if (child.signal && plainKernelBuilds) {
    f.kind = FindingKind::tool_error;
    f.summary = fmt::format(
        "the compiler of {} crashed ({}) while building this kernel, and crashes or fails on a "
        "plain kernel too: the driver's failure, not the kernel's",
        driverName(dev), signalName(child.signal));
  } else if (child.signal && compileCrashLocal && !dev.simulator) {
    // No code of the kernel's had been loaded for the launch: the driver died compiling it
    // (cl/compile_watch.hpp).
    f.kind = FindingKind::tool_error;
    f.summary =
        launchCompileCrashSummary(driverName(dev), signalName(child.signal), *compileCrashLocal);
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

// The environment of a cases unit's process: fewer of PoCL's compiles where a program is launched
// with several local sizes (cl/unit_environment.hpp), and the device's driver alone
// (cl/driver_alone.hpp).
std::optional<std::vector<std::string>> casesChildEnvironment(const Spec& spec,
                                                              const DeviceInfo& dev) {
  std::optional<std::vector<std::string>> env;
  if (casesWithoutSpecialisation(spec)) env = unitEnvironment();
  return deviceChildEnvironment(dev, std::move(env));
}

// The control after a compiler crash: a plain kernel built on the same device, in a process of its
// own.
bool plainKernelBuildsOn(const ToolConfig& config, const Spec& spec, const DeviceInfo& dev,
                         const fs::path& scratch) {
  const fs::path out = scratch / fmt::format("control-{}-{}.jsonl", dev.slug(), spec.name);
  UnitJob job;
  job.spec_file = spec.file;
  job.device_id = dev.identity();
  job.control_build = true;
  ChildOptions co;
  co.timeout_s = 120;
  co.env = casesChildEnvironment(spec, dev);  // as in the crashed build
  const JobRun run = runJob({config.exe}, "__unit", job, out.string(), co);
  const bool built = std::any_of(run.events.begin(), run.events.end(), [](const auto& j) {
    return j.value("event", "") == "control_built";
  });
  const ChildOutcome& child = run.child;
  return built && !child.signal && !child.timed_out && child.exit_code == 0;
}

// The job of one process for the unit.
UnitJob unitJob(const Spec& spec, const DeviceInfo& dev, const CheckOptions& o) {
  UnitJob job;
  job.spec_file = spec.file;
  job.source = spec.source_path;
  job.device_id = dev.identity();
  job.seed = o.seed;
  job.cases = o.cases;
  if (o.sizes) job.sizes = parseSizes(*o.sizes);
  job.shrink = o.shrink;
  job.build_programs = o.build_programs;
  job.buffer_mode = o.buffer_mode;
  job.read_mode = o.read_mode;
  job.sanitize_plan = o.sanitize_plan;
  return job;
}

// One process for the unit; `skip` leaves some of the simulator's checks off. `transient`: it ended
// with no result for no reason of the kernel's; `signalled`: it died from a signal.
UnitResult runIsolatedOnce(const ToolConfig& config, const Spec& spec, const DeviceInfo& dev,
                           const CheckOptions& o, const fs::path& scratch,
                           const std::vector<OclgrindCheck>& skip, bool* transient, bool* signalled,
                           bool alone = false, bool* timedOut = nullptr) {
  const fs::path out = scratch / fmt::format("unit-{}-{}{}.jsonl", dev.slug(), spec.name,
                                             o.sanitize_plan.empty() ? "" : "-sanitize");
  ChildOptions co;
  co.timeout_s = o.timeout_s;
  co.env = casesChildEnvironment(spec, dev);
  JobRun run;
  {
    // Beside the run's other children, or alone when confirming a timeout.
    RunGate::Turn turn(processRunGate(), alone);
    run = runJob(withSkippedChecks({config.exe}, skip), "__unit", unitJob(spec, dev, o),
                 out.string(), co);
  }
  ChildOutcome& child = run.child;
  if (timedOut) *timedOut = child.timed_out;

  std::optional<Sizes> lastSizes;
  std::optional<std::vector<size_t>> compileCrashLocal;  // died compiling a launch of this size
  int started = 0;
  bool building = false;  // between build_start and build_end: inside the driver's compiler
  for (const auto& j : run.events) {
    const std::string ev = j.value("event", "");
    if (ev == "case_start") {
      lastSizes = j["sizes"].get<Sizes>();
      ++started;
    } else if (ev == kLaunchCompileCrashEvent) {
      compileCrashLocal = j.value("local", std::vector<size_t>{});
    } else if (const auto inside = clh::buildEventState(ev)) {
      building = *inside;
    }
  }
  const std::optional<UnitResult> result = run.result<UnitResult>();
  const std::string& error = run.error;
  // A compiler that crashed crashes again with any check left off: no second try for that.
  *signalled = child.signal != 0 && !building;
  const std::string lastWords = run.lastWords(20);
  if (result && !child.timed_out && !child.signal) return *result;
  // A process that ended with no result, no signal and no message of its own (a symbol lookup
  // error while the dynamic loader set it up, a busy file system) may do better a second time.
  *transient = !result && !child.timed_out && !child.signal && error.empty() && started == 0;
  if (!error.empty()) child.error = error;
  // A process that died inside the compiler: whether a plain kernel builds there says whose the
  // crash is.
  std::optional<bool> plainKernelBuilds;
  if (child.signal && building) plainKernelBuilds = plainKernelBuildsOn(config, spec, dev, scratch);
  UnitResult u = lostUnit(config, spec, dev, o, child, lastSizes, started, plainKernelBuilds,
                          child.signal && !building ? compileCrashLocal : std::nullopt);
  if (!lastWords.empty() && u.failing && !u.failing->findings.empty())
    u.failing->findings.front().raw = "the process's last words on stderr:\n" + lastWords + "\n";
  return u;
}

// A unit stopped at its limit may have met a busy machine, not a kernel that never ends: it runs
// again with nothing else of the run beside it and the limit doubled, and only a second timeout
// is the kernel's finding.
UnitResult confirmTimeout(const ToolConfig& config, const Spec& spec, const DeviceInfo& dev,
                          const CheckOptions& o, const fs::path& scratch, const UnitResult& first) {
  const std::string where = first.failing && !first.failing->sizes.empty()
                                ? " during the case " + formatSizes(first.failing->sizes)
                                : "";
  CheckOptions twice = o;
  twice.timeout_s = 2 * o.timeout_s;
  bool transient = false, signalled = false, timedOut = false;
  UnitResult u = runIsolatedOnce(config, spec, dev, twice, scratch, {}, &transient, &signalled,
                                 true, &timedOut);
  if (timedOut) {
    if (u.failing && !u.failing->findings.empty())
      u.failing->findings.front().summary = fmt::format(
          "the unit ran past its {:.0f} s limit{}, and past {:.0f} s when rerun alone with the "
          "limit doubled (a kernel that never ends?)",
          o.timeout_s, where, twice.timeout_s);
    return u;
  }
  u.observations.push_back(fmt::format(
      "a first try ran past the unit's {:.0f} s limit{}; rerun alone with the limit doubled, it "
      "finished (a busy machine, not the kernel)",
      o.timeout_s, where));
  return u;
}

bool diedCompilingALaunch(const UnitResult& u) {
  return u.failing && !u.failing->findings.empty() &&
         isLaunchCompileCrash(u.failing->findings.front().summary);
}

// A process that died compiling a launch may have had its memory spoilt by the kernels of earlier
// cases: the case runs again alone in a new process, where its launches are the first. Dying so
// again is the driver's; dying in the kernel's code then is the kernel's crash.
UnitResult confirmCompileCrash(const ToolConfig& config, const Spec& spec, const DeviceInfo& dev,
                               const CheckOptions& o, const fs::path& scratch, UnitResult first) {
  CheckOptions alone = o;
  alone.sizes = formatSizes(first.failing->sizes);
  bool transient = false, signalled = false;
  UnitResult again =
      runIsolatedOnce(config, spec, dev, alone, scratch, {}, &transient, &signalled, true);
  Finding& f = first.failing->findings.front();
  if (diedCompilingALaunch(again)) {
    f.summary += "; the same again when the case ran alone in a new process";
    return first;
  }
  if (signalled && again.failing) {
    again.observations.push_back("a first process died in a launch's compile step: " + f.summary);
    return again;  // the kernel's crash, now seen in its own code
  }
  f.summary +=
      "; the case alone in a new process did not die (" + std::string(toString(again.status)) + ")";
  return first;
}

}  // namespace

UnitResult runUnitIsolated(const ToolConfig& config, const Spec& spec, const DeviceInfo& dev,
                           const CheckOptions& o, const fs::path& scratch) {
  bool transient = false, signalled = false, timedOut = false;
  UnitResult u;
  if (dev.simulator) {
    // Oclgrind dying with one of its checks on is the simulator's failure: the unit runs again
    // without that check, so the others still look (the unit's observations say which could not).
    std::optional<UnitResult> first;
    const CheckFallbackOutcome fb =
        runWithCheckFallback([&](const std::vector<OclgrindCheck>& skip) {
          u = runIsolatedOnce(config, spec, dev, o, scratch, skip, &transient, &signalled, false,
                              &timedOut);
          if (!first) first = u;
          return signalled;
        });
    if (fb.crashed) u = *first;
  } else {
    u = runIsolatedOnce(config, spec, dev, o, scratch, {}, &transient, &signalled, false,
                        &timedOut);
  }
  if (timedOut) return confirmTimeout(config, spec, dev, o, scratch, u);
  if (diedCompilingALaunch(u) && !o.sizes)
    return confirmCompileCrash(config, spec, dev, o, scratch, u);
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

void to_json(nlohmann::json& j, const UnitJob& job) {
  j = {{"spec_file", job.spec_file},
       {"device_id", job.device_id},
       {"seed", job.seed},
       {"cases", job.cases},
       {"shrink", job.shrink},
       {"build_programs", job.build_programs},
       {"buffer_mode", job.buffer_mode},
       {"read_mode", job.read_mode},
       {"control_build", job.control_build}};
  putOptional(j, "sizes", job.sizes);
  if (!job.sanitize_plan.empty()) j["sanitize_plan"] = job.sanitize_plan;
  if (!job.source.empty()) j["source"] = job.source;
}

void from_json(const nlohmann::json& j, UnitJob& job) {
  job.spec_file = j.at("spec_file").get<std::string>();
  job.device_id = j.at("device_id").get<std::string>();
  job.seed = j.value("seed", job.seed);
  job.cases = j.value("cases", job.cases);
  job.shrink = j.value("shrink", job.shrink);
  job.build_programs = j.value("build_programs", job.build_programs);
  job.buffer_mode = j.value("buffer_mode", job.buffer_mode);
  job.read_mode = j.value("read_mode", job.read_mode);
  job.control_build = j.value("control_build", job.control_build);
  getOptional(j, "sizes", job.sizes);
  job.sanitize_plan = j.value("sanitize_plan", job.sanitize_plan);
  job.source = j.value("source", job.source);
}

namespace {

// The child of a sanitized unit: its plan, kept to the case `job.sizes` when a rerun names one.
UnitResult runSanitizedChild(DeviceSession& session, const Spec& spec, const UnitJob& job,
                             const std::function<void(const Sizes&)>& on_case_start) {
  sanitize::SanitizePlan plan = sanitize::readPlan(job.sanitize_plan);
  if (job.sizes) {
    const Sizes& only = *job.sizes;
    std::erase_if(plan.sizes, [&](const Sizes& s) {
      return !std::all_of(only.begin(), only.end(), [&](const auto& kv) {
        const auto it = s.find(kv.first);
        return it != s.end() && it->second == kv.second;
      });
    });
  }
  return sanitize::runSanitizedUnit(session, spec, plan, job.seed, on_case_start);
}

}  // namespace

int runUnitChild(const ToolConfig& config, const UnitJob& job, JobChannel& channel) {
  Spec spec = loadSpec(job.spec_file, config.repo_root);
  if (!job.source.empty() && job.source != spec.source_path)
    spec.source = spec.source_path = job.source;  // an audit's mutant of the spec's kernel
  const DeviceInfo found = findDeviceAgain(config, job.device_id);
  const DeviceInfo* dev = &found;
  std::unique_ptr<OclgrindSession> sim =
      simulatorSession(*dev, channel.path() + ".oclgrind.jsonl",
                       dev->simulator && job.sanitize_plan.empty() && oneWorkItemOnSimulator(spec));
  DeviceSession session(*dev, sim.get());
  if (job.control_build) {
    session.reset();  // a new context, and the plain probe kernel built and run in it
    channel.send("control_built");
    return kExitOk;
  }
  // The driver's compiles are marked, so that a process dying in one is known as a compiler
  // crash (lostUnit).
  setBuildHook([&channel](bool building) { channel.send(clh::buildEventName(building)); });
  struct Unhook {
    ~Unhook() { setBuildHook({}); }
  } unhook;
  watchLaunchCompiles(channel.fd());  // and a death in a launch's compile too
  UnitOptions uo = unitOptions(config, job);
  uo.on_case_start = [&channel](const Sizes& s) { channel.send("case_start", {{"sizes", s}}); };
  if (!job.sanitize_plan.empty())
    channel.result(runSanitizedChild(session, spec, job, uo.on_case_start));
  else
    channel.result(runUnit(session, spec, uo));
  if (sim) std::filesystem::remove(sim->logPath());
  return kExitOk;
}

}  // namespace clh
