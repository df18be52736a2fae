// Compiling ahead on a real device, in one child process (run/prebuild.hpp).
#include "run/prebuild.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <utility>

#include "cl/driver_alone.hpp"
#include "cl/session.hpp"
#include "cl/unit.hpp"
#include "core/case.hpp"
#include "core/sizes.hpp"
#include "launch/family.hpp"
#include "proc/gate.hpp"

namespace fs = std::filesystem;

namespace clh {

void to_json(nlohmann::json& j, const AheadProgram& p) {
  j = {{"source", p.source},
       {"options", p.options},
       {"kernels", p.kernels},
       {"binaries", p.binaries}};
}
void from_json(const nlohmann::json& j, AheadProgram& p) {
  j.at("source").get_to(p.source);
  j.at("options").get_to(p.options);
  j.at("kernels").get_to(p.kernels);
  j.at("binaries").get_to(p.binaries);
}
void to_json(nlohmann::json& j, const PrebuildJob& job) {
  j = {{"device_id", job.device_id}, {"programs", job.programs}};
}
void from_json(const nlohmann::json& j, PrebuildJob& job) {
  j.at("device_id").get_to(job.device_id);
  j.at("programs").get_to(job.programs);
}

namespace {

// The programs the spec's cases and launch family will build on the device, where known before
// they run: a unit whose every program is in the driver's cache starts no compiler of its own.
// Where the options name sizes, each case draws its own (a cases unit then compiles anyway).
std::vector<AheadProgram> specProgramsAhead(const Spec& spec, const DeviceInfo& dev, uint64_t seed,
                                            bool launches) {
  std::vector<std::string> kernels;
  for (const auto& l : spec.launches) kernels.push_back(l.kernel);
  std::vector<AheadProgram> out;
  // Cases of options as written run without work-group specialisation
  // (cl/unit_environment.hpp): the binaries hold the code they run, for any local size.
  if (spec.build_options.find('{') == std::string::npos)
    out.push_back({spec.source_path, spec.build_options, kernels, true});
  if (launches) {
    ExprEnv env(paramNames(spec));
    const ResolvedCase rc = resolveCase(spec, env, launch::launchCaseSizes(spec, false, seed));
    for (auto& o : launch::familyBuildOptions(rc.build_options, dev))
      out.push_back({spec.source_path, std::move(o), kernels, false});
  }
  return out;
}

}  // namespace

AheadPlan programsAhead(const std::vector<Spec>& specs, const DeviceInfo& dev, uint64_t seed,
                        bool launches) {
  AheadPlan plan;
  std::map<std::pair<std::string, std::string>, size_t> seen;  // -> its index in the plan
  for (const Spec& spec : specs) {
    std::vector<AheadProgram> programs;
    try {
      programs = specProgramsAhead(spec, dev, seed, launches);
    } catch (const std::exception&) {  // no case in the spec's domain: its units say so
    }
    for (auto& p : programs) {
      const auto [it, first] =
          seen.emplace(std::make_pair(p.source, p.options), plan.programs.size());
      if (first)
        plan.programs.push_back(std::move(p));
      else
        plan.programs[it->second].binaries |= p.binaries;
    }
    plan.ready_after.push_back(plan.programs.size());
  }
  return plan;
}

namespace {

// One program built, its binaries asked for where they hold the units' code; whether it built.
bool buildAhead(DeviceSession& session, const AheadProgram& p) {
  const BuildOutcome& b = session.build(p.source, p.options, p.kernels);
  if (b.failure) return false;
  if (p.binaries) try {  // PoCL compiles the kernels' code for any local size here
      (void)b.program->getInfo<CL_PROGRAM_BINARIES>();
    } catch (const cl::Error&) {  // a driver that cannot: the units compile it
    }
  return true;
}

double processCpuSeconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

}  // namespace

int runPrebuildChild(const ToolConfig& config, const PrebuildJob& job, JobChannel& channel) {
  const DeviceInfo dev = findDeviceAgain(config, job.device_id);
  DeviceSession session(dev, nullptr);
  std::vector<double> cpu;  // the CPU seconds of the first two programs that built
  for (const AheadProgram& p : job.programs) {
    const double before = processCpuSeconds();
    const bool ok = buildAhead(session, p);
    if (ok && cpu.size() < 2) cpu.push_back(processCpuSeconds() - before);
    channel.send("built", {{"ok", ok}});  // the parent counts these, a crash's too
    // What compiling ahead saves is the start a driver pays on a process's first build that
    // misses its cache (PoCL reads its kernel library: a CPU-second). Where the first build cost
    // no more than twice the second, this process started nothing: the driver's cache had them
    // (or it has no such start), and each unit loses nothing by building its own.
    if (cpu.size() == 2 && cpu[0] <= 2 * cpu[1]) {
      channel.result(nlohmann::json{
          {"stopped", fmt::format("its first build took {:.2f} CPU-s, its second {:.2f}: no "
                                  "compiler start to save",
                                  cpu[0], cpu[1])}});
      return 0;
    }
  }
  channel.result(nlohmann::json::object());
  return 0;
}

std::string PrebuildOutcome::line(const std::string& device) const {
  std::string s = fmt::format("[ahead] {}: {} of {} programs compiled in one process ({:.2f}s)",
                              device, built, programs, seconds);
  if (failed) s += fmt::format(", {} did not build (their units say why)", failed);
  if (!stopped.empty()) s += "; it stopped there: " + stopped;
  if (!ended_early.empty()) s += "; it ended early: " + ended_early + ", the units build the rest";
  return s;
}

PrebuildOutcome compileAhead(const ToolConfig& config, const DeviceInfo& dev,
                             std::vector<AheadProgram> programs, const fs::path& scratch,
                             double timeout_s,
                             const std::function<void(size_t finished)>& on_built) {
  PrebuildOutcome out;
  out.programs = programs.size();
  const fs::path events = scratch / fmt::format("prebuild-{}.jsonl", dev.slug());
  ChildOptions co;
  co.timeout_s = timeout_s;
  co.env = deviceChildEnvironment(dev);  // its driver alone (cl/driver_alone.hpp)
  LineTail tail(events.string());
  size_t finished = 0;
  double polled = -1;
  co.stop = [&](double seconds) {  // the child's `built` lines as they come, every 20 ms
    if (!on_built || seconds - polled < 0.02) return false;
    polled = seconds;
    const size_t before = finished;
    tail.pollJson([&](const nlohmann::json& e) { finished += e.value("event", "") == "built"; });
    if (finished != before) on_built(finished);
    return false;
  };
  const auto start = std::chrono::steady_clock::now();
  JobRun run;
  {
    RunGate::Turn beside(processRunGate(), false);  // a unit confirming a timeout runs alone
    run = runJob({config.exe}, "__prebuild", PrebuildJob{dev.identity(), std::move(programs)},
                 events.string(), co);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& e : run.events)
    if (e.value("event", "") == "built") ++(e.value("ok", false) ? out.built : out.failed);
  if (const auto result = run.result<nlohmann::json>()) out.stopped = result->value("stopped", "");
  const ChildOutcome& child = run.child;
  if (child.timed_out)
    out.ended_early = fmt::format("ended at its limit of {:.0f} s", timeout_s);
  else if (child.signal)
    out.ended_early = "killed by " + signalName(child.signal);
  else if (child.exit_code != 0)
    out.ended_early = fmt::format("exit code {}{}", child.exit_code,
                                  run.error.empty() ? "" : " (" + run.error + ")");
  return out;
}

AheadCompiles::AheadCompiles(const std::vector<Spec>& specs, const std::vector<DeviceInfo>& devices,
                             uint64_t seed, bool launches, size_t units_per_spec, bool on)
    : devices_(devices), plan_of_(devices.size(), kNone), built_(devices.size()) {
  for (auto& b : built_) b = kNone;
  if (!on || specs.size() * units_per_spec < 2) return;
  for (size_t d = 0; d < devices.size(); ++d) {
    if (devices[d].simulator) continue;
    AheadPlan plan = programsAhead(specs, devices[d], seed, launches);
    if (plan.programs.empty()) continue;
    plan_of_[d] = plans_.size();
    plans_.emplace_back(d, std::move(plan));
    built_[d] = 0;
  }
}

bool AheadCompiles::ready(size_t device, size_t spec) const {
  const size_t built = built_[device];
  return built == kNone || built >= plans_[plan_of_[device]].second.ready_after[spec];
}

PrebuildOutcome AheadCompiles::run(size_t task, const ToolConfig& config, const fs::path& scratch,
                                   double timeout_s) {
  const size_t d = plans_[task].first;
  PrebuildOutcome out = compileAhead(config, devices_[d], plans_[task].second.programs, scratch,
                                     timeout_s, [&](size_t finished) { built_[d] = finished; });
  built_[d] = kNone;  // whatever is left, the units build
  return out;
}

}  // namespace clh
