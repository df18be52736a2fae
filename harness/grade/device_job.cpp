// One submission on one device (the child's work), its limits, and the parent's reading of the
// events the child left behind.
#include "grade/device_job.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include <cerrno>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <set>
#include <system_error>

#include "cl/build_hook.hpp"
#include "cl/compile_watch.hpp"
#include "cl/session.hpp"
#include "cl/unit.hpp"
#include "core/sizes.hpp"
#include "grade/speed.hpp"
#include "grade/trace.hpp"
#include "proc/job.hpp"
#include "sanitize/cases.hpp"
#include "sim/oclgrind_session.hpp"

namespace clh::grade {

namespace {

bool builtEverything(const UnitResult& u) {
  if (!u.failing) return true;
  for (const auto& f : u.failing->findings)
    if (f.kind == FindingKind::build_error || f.kind == FindingKind::tool_error) return false;
  return true;
}

// The timed rounds: one run of each kernel a round, the order turned every round (A B B A ...),
// each round's ratio of the student's time to the reference's (grade/speed.hpp). A student's run
// that fails stops the measurement with `problem` said.
void timeRounds(DeviceSession& session, const Spec& student, const Spec& reference, int rounds,
                uint64_t seed, SpeedSample& sample) {
  std::vector<double> mine, theirs;
  for (int r = 0; r < rounds; ++r) {
    const bool studentFirst = studentFirstInRound(r);
    CaseOutcome first = session.runCase(studentFirst ? student : reference, sample.sizes, seed);
    CaseOutcome second = session.runCase(studentFirst ? reference : student, sample.sizes, seed);
    const CaseOutcome& b = studentFirst ? first : second;
    const CaseOutcome& a = studentFirst ? second : first;
    if (!b.ok()) {
      sample.problem =
          fmt::format("at the timed case {} (round {} of {}): {}", formatSizes(sample.sizes), r + 1,
                      rounds, b.findings.front().summary);
      return;
    }
    if (a.kernel_ns <= 0 || b.kernel_ns <= 0) continue;  // the device gave no time this round
    mine.push_back(b.kernel_ns);
    theirs.push_back(a.kernel_ns);
    sample.ratios.push_back(b.kernel_ns / a.kernel_ns);
  }
  if (sample.ratios.empty()) throw std::runtime_error("the device gave no kernel times");
  sample.student_ns = quantile(mine, 0.5);
  sample.reference_ns = quantile(theirs, 0.5);
}

SpeedSample timeSpeedCase(DeviceSession& session, const Spec& student, const Spec& reference,
                          const SpeedRule& rule, uint64_t seed, const EventSink& emit) {
  SpeedSample sample;
  sample.sizes = parseSizes(rule.sizes);
  ExprEnv env(paramNames(student));
  completeDerived(student, env, sample.sizes);
  emit({{"event", "case_start"}, {"sizes", sample.sizes}, {"phase", "speed"}});
  // The first run builds and checks the student's kernel at this case; a wrong one is not timed.
  CaseOutcome first = session.runCase(student, sample.sizes, seed);
  if (!first.ok()) {
    sample.problem = fmt::format("at the timed case {}: {}", formatSizes(sample.sizes),
                                 first.findings.front().summary);
    return sample;
  }
  CaseOutcome ref = session.runCase(reference, sample.sizes, seed);
  if (!ref.ok()) {
    // The reference solution failing here is the environment's problem, never the student's.
    throw std::runtime_error(fmt::format("the reference solution failed at the timed case {}: {}",
                                         formatSizes(sample.sizes), ref.findings.front().summary));
  }
  // Both built and warm: in pairs from here, so that a machine busy for a while slows both alike.
  timeRounds(session, student, reference, speedRounds(rule), seed, sample);
  return sample;
}

}  // namespace

void runDeviceJob(const DeviceInfo& device, const DeviceJob& job, const std::string& repo_root,
                  const std::string& simulator_log, const EventSink& emit) {
  Spec reference = loadSpec(job.spec_file, repo_root);
  Spec student = reference;
  student.source = job.submission;  // the simulator's findings name this file
  student.source_path = job.submission;

  std::unique_ptr<OclgrindSession> sim;
  if (device.simulator) {
    std::string plugin = findOclgrindPlugin();
    if (plugin.empty())
      throw std::runtime_error(
          "the simulator's diagnostics plugin was not found: race and memory checks cannot run");
    sim = std::make_unique<OclgrindSession>(plugin, simulator_log);
    if (job.trace && !job.sizes) sim->setWatchFile(simulator_log + ".watch");
    sim->applyToProcess();  // before the context: Oclgrind reads its settings then
  }
  {
    DeviceSession session(device, sim.get());
    // The driver's compiles are timed apart from the cases (grade/time_limits.hpp).
    setBuildHook([&emit](bool building) { emit({{"event", clh::buildEventName(building)}}); });
    struct Unhook {
      ~Unhook() { setBuildHook({}); }
    } unhook;
    if (!job.sanitize_plan.empty()) {
      const sanitize::SanitizePlan plan = sanitize::readPlan(job.sanitize_plan);
      UnitResult unit =
          sanitize::runSanitizedUnit(session, student, plan, job.seed, [&emit](const Sizes& s) {
            emit({{"event", "case_start"}, {"sizes", s}});
          });
      emit({{"event", "unit"}, {"unit", unit}, {"cases_asked", plan.sizes.size()}});
      return;  // a real device: no simulator files to remove
    }
    if (job.speed_only && job.speed && !device.simulator) {
      // A ratio that lost points, measured again alone: the timed case only (docs/grading.md).
      emit({{"event", "speed"},
            {"speed", timeSpeedCase(session, student, reference, *job.speed, job.seed, emit)}});
      return;  // a real device: no simulator files to remove
    }
    if (job.reference_first) {
      // The reference solution at the case a first try stopped in, timed here and now: the same
      // device, the same machine load.
      Sizes sizes = *job.reference_first;
      ExprEnv env(paramNames(reference));
      completeDerived(reference, env, sizes);
      emit({{"event", "case_start"}, {"sizes", sizes}, {"who", "reference"}});
      CaseOutcome ref = session.runCase(reference, sizes, job.seed);
      emit({{"event", "case_end"}, {"sizes", sizes}, {"who", "reference"}, {"ok", ref.ok()}});
    }
    UnitOptions uo;
    uo.seed = job.seed;
    uo.cases = job.cases;
    uo.distinct = true;  // `cases` distinct sizes, where the domain holds that many
    uo.sizes = job.sizes;
    uo.on_case_start = [&emit](const Sizes& s) { emit({{"event", "case_start"}, {"sizes", s}}); };
    UnitResult unit = runUnit(session, student, uo);
    const int asked = job.sizes          ? 0
                      : job.cases > 0    ? job.cases
                      : device.simulator ? student.sim_cases
                                         : student.cases;
    emit({{"event", "unit"}, {"unit", unit}, {"cases_asked", asked}});
    if (sim && job.trace && !job.sizes && builtEverything(unit))
      emit(
          {{"event", "trace"},
           {"trace", traceOnSimulator(session, *sim, student, *job.trace, job.seed,
                                      std::filesystem::path(job.submission).filename().string())}});
    if (job.speed && !device.simulator && !job.sizes && builtEverything(unit))
      emit({{"event", "speed"},
            {"speed", timeSpeedCase(session, student, reference, *job.speed, job.seed, emit)}});
  }  // the context goes before the simulator session it reports to
  if (sim) {
    std::error_code ec;
    std::filesystem::remove(sim->logPath(), ec);
    if (!sim->watchFile().empty()) std::filesystem::remove(sim->watchFile(), ec);
  }
}

void applyLimits(const Limits& limits) {
  if (const int e = setProcessLimits(limits.cpu_seconds, limits.memory_bytes))
    throw std::system_error(e, std::generic_category(), "setrlimit");
}

void to_json(nlohmann::json& j, const DeviceJob& job) {
  j = {{"spec_file", job.spec_file},
       {"submission", job.submission},
       {"device_id", job.device_id},
       {"seed", job.seed},
       {"cases", job.cases}};
  putOptional(j, "sizes", job.sizes);
  if (job.speed) j["speed"] = {{"sizes", job.speed->sizes}, {"repeats", job.speed->repeats}};
  putOptional(j, "trace", job.trace);
  putOptional(j, "reference_first", job.reference_first);
  if (job.speed_only) j["speed_only"] = true;
  if (!job.sanitize_plan.empty()) j["sanitize_plan"] = job.sanitize_plan;
}

void from_json(const nlohmann::json& j, DeviceJob& job) {
  job.spec_file = j.at("spec_file").get<std::string>();
  job.submission = j.at("submission").get<std::string>();
  job.device_id = j.at("device_id").get<std::string>();
  job.seed = j.value("seed", job.seed);
  job.cases = j.value("cases", job.cases);
  getOptional(j, "sizes", job.sizes);
  if (j.contains("speed")) {
    SpeedRule rule;
    rule.sizes = j["speed"].at("sizes").get<std::string>();
    rule.repeats = std::max(1, j["speed"].value("repeats", rule.repeats));
    job.speed = rule;
  }
  getOptional(j, "trace", job.trace);
  getOptional(j, "reference_first", job.reference_first);
  job.speed_only = j.value("speed_only", false);
  job.sanitize_plan = j.value("sanitize_plan", job.sanitize_plan);
}

std::string signalWord(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

DeviceRun collectDeviceRun(std::istream& events, const ChildEnd& end, const RunDevice& device) {
  return collectDeviceRun(readJsonLines(events), end, device);
}

namespace {

// What a child's events tell beyond the values they carry: the case running when it ended, its
// error, and whether it was inside the driver's compiler.
struct ChildTrail {
  std::optional<Sizes> last_sizes;
  std::string error;
  std::optional<std::vector<size_t>> compile_crash;  // died compiling a launch of this local size
  bool building = false;  // between build_start and build_end: inside the driver's compiler
};

// Reads the child's events into `run` (its unit, trace, speed and case counts).
ChildTrail readChildEvents(const std::vector<nlohmann::json>& events, DeviceRun& run) {
  ChildTrail t;
  std::set<Sizes> distinct;
  for (const auto& j : events) {  // whole objects: a line cut short by a crash is none
    std::string ev = j.value("event", "");
    try {
      if (ev == "case_start" && j.value("who", "") == "reference") {
        continue;  // the reference solution timed first: not the student's case
      } else if (ev == "case_start") {
        t.last_sizes = j.at("sizes").get<Sizes>();
        ++run.cases_started;
        if (!j.contains("phase")) distinct.insert(*t.last_sizes);
      } else if (ev == "unit") {
        run.unit = j.at("unit").get<UnitResult>();
        run.cases_asked = j.value("cases_asked", 0);
      } else if (ev == "trace") {
        run.trace = j.at("trace").get<SimulatorTrace>();
      } else if (ev == "speed") {
        run.speed = j.at("speed").get<SpeedSample>();
      } else if (ev == "error") {
        t.error = j.value("message", "");
      } else if (ev == clh::kLaunchCompileCrashEvent) {
        t.compile_crash = j.value("local", std::vector<size_t>{});
      } else if (const auto inside = clh::buildEventState(ev)) {
        t.building = *inside;
      }
    } catch (const nlohmann::json::exception&) {
      continue;  // a damaged event says nothing
    }
  }
  if (run.unit) run.seconds = run.unit->seconds;
  run.distinct_cases = static_cast<int>(distinct.size());
  return t;
}

// The finding of a child that a signal other than the CPU limit's ended: whose it is depends on
// where the process was.
Finding signalFinding(const ChildEnd& end, const RunDevice& device, const ChildTrail& t) {
  Finding f;
  f.raw = end.log_tail;
  f.kind = FindingKind::tool_error;
  const std::string sig = signalWord(end.signal);
  if (t.building && end.reference_built) {
    // The compiler died on this source where the reference solution builds: the source provoked
    // it, and it is the student's to change (a compiler should print an error, but did not).
    f.kind = FindingKind::build_error;
    f.summary = fmt::format(
        "the compiler crashed while building your kernel ({}); the reference solution builds on "
        "the same device, so something in your source provokes it (a `#pragma clang` line, or "
        "macros or nesting that need more than the memory limit?)",
        sig);
  } else if (t.building) {
    f.summary = fmt::format(
        "the compiler of {} crashed ({}) while building your kernel, and the reference solution "
        "was not seen to build there: the {}'s failure, not the student's",
        device.name, sig, device.simulator ? "simulator" : "driver");
  } else if (t.compile_crash && !device.simulator) {
    // No code of the kernel's had been loaded for the launch (cl/compile_watch.hpp).
    f.summary = clh::launchCompileCrashSummary(device.name, sig, *t.compile_crash);
  } else if (device.simulator) {
    f.summary = fmt::format("the simulator crashed ({}): not the student's fault", sig);
  } else {
    f.kind = FindingKind::crash;
    f.summary = fmt::format("crashed ({}): the kernel killed the process running it", sig);
  }
  return f;
}

// The finding of a child that did not give its result, and how it ended; none when it did.
std::optional<Finding> lostFinding(const ChildEnd& end, const RunDevice& device,
                                   const ChildTrail& t, bool reported, RunEnd& how) {
  Finding f;
  if (end.timed_out) {
    how = RunEnd::timeout;
    f.kind = FindingKind::timeout;
    f.summary = fmt::format(
        "did not finish within the time limit ({:.0f} s) and was stopped: a loop that never ends?",
        end.limit_s);
  } else if (end.signal == SIGXCPU) {
    how = RunEnd::timeout;
    f.kind = FindingKind::timeout;
    f.summary = "ran past its CPU-time limit and was stopped: a loop that never ends?";
  } else if (end.signal) {
    how = RunEnd::crashed;
    f = signalFinding(end, device, t);
  } else if (!end.started || !t.error.empty() || !reported) {
    how = RunEnd::tool_error;
    f.kind = FindingKind::tool_error;
    f.summary = !end.started       ? "the grading process could not start: " + end.error
                : !t.error.empty() ? "the grading process failed: " + t.error
                                   : fmt::format(
                                         "the grading process exited with code {} and no "
                                         "result",
                                         end.exit_code);
    if (end.started) f.raw = end.log_tail;
  } else {
    return std::nullopt;
  }
  f.device = device.name;
  return f;
}

}  // namespace

DeviceRun collectDeviceRun(const std::vector<nlohmann::json>& events, const ChildEnd& end,
                           const RunDevice& device) {
  DeviceRun run;
  run.device = device.name;
  run.device_kind = device.kind;
  run.simulator = device.simulator;
  run.sanitized = device.sanitized;
  const ChildTrail trail = readChildEvents(events, run);
  std::optional<Finding> f = lostFinding(end, device, trail, run.unit.has_value(), run.end);
  if (!f) return run;
  CaseOutcome lost;
  if (trail.last_sizes) lost.sizes = *trail.last_sizes;
  lost.findings.push_back(std::move(*f));
  run.lost = std::move(lost);
  return run;
}

}  // namespace clh::grade
