// The launch family of one spec on one device in child processes (launch/run.hpp).
#include "launch/run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>

#include "cl/build_hook.hpp"
#include "cl/driver_alone.hpp"
#include "cl/unit.hpp"
#include "cl/unit_environment.hpp"
#include "core/sizes.hpp"
#include "launch/json.hpp"
#include "launch/spec_shapes.hpp"
#include "proc/child.hpp"
#include "proc/gate.hpp"

namespace fs = std::filesystem;

namespace clh {

using launch::LaunchFamilyResult;
using launch::ShapeCheck;

namespace {

// Whether a family's children get the units' driver settings: only when every kind it draws is a
// kernel family (kernelFamilies(), the launch units of `check`, whose verdicts were compared with
// and without them). Not for the driver-probing kinds: with the setting PoCL 3.1 answers a 0 in
// the local size with a hang instead of a crash (docs/performance.md), and `clharness launch`
// with no --kind draws them too.
bool withoutSpecialisation(const std::vector<std::string>& kinds) {
  return !kinds.empty() && std::all_of(kinds.begin(), kinds.end(), launch::isKernelFamily);
}

// What one child's events said: the shape it was running when it ended, and where it stopped.
struct ChildEvents {
  std::optional<ShapeCheck> running;  // started, not finished
  std::optional<int> restart_at;      // the child stopped after a failed command
  std::string phase;
  bool done = false;
  bool building = false;  // between build_start and build_end: inside the driver's compiler
  int received = 0;       // shapes this child finished
};

// One isolated family: children run one after another, each from the shape after the last one
// known, until the family is done or cannot go on. Each step says whether another child runs.
class IsolatedFamily {
 public:
  IsolatedFamily(const ToolConfig& config, const LaunchRunOptions& args, const Spec& spec,
                 const DeviceInfo& dev, const fs::path& scratch)
      : config_(config),
        args_(args),
        spec_(spec),
        dev_(dev),
        out_(scratch / fmt::format("launch-{}-{}.jsonl", dev.slug(), spec.name)),
        end_(args.shape >= 0 ? args.shape + 1 : args.shapes),
        first_(args.shape >= 0 ? args.shape : 0) {
    run_.spec = &spec;
    run_.device = &dev;
    run_.result.spec = spec.name;
    run_.result.spec_file = spec.file;
    run_.result.device = dev.displayName();
  }

  FamilyRun run() {
    const auto started = std::chrono::steady_clock::now();
    while (first_ < end_)
      if (!runChild()) break;
    noteShapesNotRun();
    run_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return std::move(run_);
  }

 private:
  static constexpr int kMaxRestarts = 100;

  // One shape that does not end (a driver stuck on a launch it should refuse: PoCL on a 0 in
  // the local size, at times) ends its child well before the whole family's limit.
  ChildOptions childOptions() const {
    ChildOptions co;
    co.timeout_s = args_.timeout_s;  // the watchdog watches the events file
    co.idle_s = std::min(args_.timeout_s, args_.shape_timeout_s) * (confirming_ >= 0 ? 2 : 1);
    // Making a context and the driver's compiles are timed on their own, generous limit.
    co.slow_idle_s = std::min(args_.timeout_s, args_.build_timeout_s) * (confirming_ >= 0 ? 2 : 1);
    co.slow_marker = "\"build_start\"";
    // Fewer of PoCL's compiles (cl/unit_environment.hpp); a shape replayed for the driver section
    // gets the same settings as the family it came from.
    if (withoutSpecialisation(args_.kinds)) co.env = unitEnvironment();
    co.env = deviceChildEnvironment(dev_, co.env);  // its driver alone (cl/driver_alone.hpp)
    return co;
  }

  // Runs one child and decides from how it ended: true when another child runs.
  bool runChild() {
    const int stop_at = confirming_ >= 0 ? confirming_ + 1 : end_;
    const LaunchJob job{
        spec_.file,       dev_.identity(),        stop_at,     first_,        args_.seed,
        args_.no_results, args_.simulator_checks, args_.kinds, skip_must_run_};
    const ChildOptions co = childOptions();
    JobRun job_run;
    {
      RunGate::Turn turn(processRunGate(), confirming_ >= 0);
      job_run = runJob({config_.exe}, "__launch", job, out_.string(), co);
    }
    const ChildOutcome& child = job_run.child;
    const bool was_confirming = confirming_ >= 0;
    confirming_ = -1;
    const ChildEvents ev = readEvents(job_run);
    const std::string last_words = job_run.lastWords(1, 160);
    std::error_code ec;
    fs::remove(out_.string() + ".oclgrind.jsonl", ec);
    const bool died = child.signal || child.timed_out;
    if (was_confirming && !died && ev.received > 0) {
      run_.result.notes.push_back(fmt::format(
          "shape #{} ran past {:.0f} s on a first try; rerun alone with the limit doubled, it "
          "finished (a busy machine, not the driver)",
          stop_at - 1, first_stall_s_));
      if (stop_at < end_) {
        first_ = stop_at;
        return true;
      }
    }
    if (ev.done) return diedAfterLastShape(child, died);
    if (ev.restart_at && !died && *ev.restart_at > first_) return freshStart(*ev.restart_at);
    std::string error = job_run.error;
    if (!died && ev.received > 0) return stoppedWithError(error, last_words);
    if (!died && !ev.running && !ev.done && ++startup_failures_ < 2)
      return true;  // once more: a busy ICD
    if (child.signal && ev.building && !ev.running) return compilerCrashed(child);
    if (!died || !ev.running) return noShapeRan(child, error, last_words);
    if (child.stalled && !was_confirming) {
      // Confirmed before it is charged: this shape alone, nothing else of the run beside it.
      confirming_ = ev.running->index;
      first_stall_s_ = co.idle_s;
      first_ = ev.running->index;
      ++run_.confirmed;
      return true;
    }
    return shapeLost(child, ev, co.idle_s, last_words);
  }

  ChildEvents readEvents(const JobRun& job_run) {
    ChildEvents e;
    for (const auto& j : job_run.events) {
      const std::string ev = j.value("event", "");
      if (ev == "ready" || ev == "done") {
        if (!have_header_ || ev == "done") takeHeader(launch::familyFromJson(j.at("family")));
        e.done |= ev == "done";
      } else if (ev == "start") {
        e.running = launch::shapeCheckFromJson(j.at("check"));
        e.phase = j.value("phase", "");
      } else if (ev == "shape") {
        run_.result.shapes.push_back(launch::shapeCheckFromJson(j.at("check")));
        const ShapeCheck& c = run_.result.shapes.back();
        // A launch that had to run ran and its process lived: the expected deaths are not a row.
        if (c.prediction.mustSucceed() &&
            c.got == launch::Outcome{launch::Stage::completion, CL_SUCCESS})
          expected_deaths_ = 0;
        e.running.reset();
        ++e.received;
      } else if (ev == "not_run") {
        run_.not_run.push_back(j.value("index", -1));
      } else if (ev == "restart") {
        e.restart_at = j.value("next", first_);
      } else if (const auto inside = clh::buildEventState(ev)) {
        e.building = *inside;
      }
    }
    return e;
  }

  // The child's description of the family replaces ours, keeping the shapes gathered so far; the
  // parent's own notes (shapes that stalled) stay beside the child's.
  void takeHeader(LaunchFamilyResult header) {
    std::vector<std::string> notes = std::move(run_.result.notes);
    header.shapes = std::move(run_.result.shapes);
    run_.result = std::move(header);
    for (auto& n : notes)
      if (std::find(run_.result.notes.begin(), run_.result.notes.end(), n) ==
          run_.result.notes.end())
        run_.result.notes.push_back(std::move(n));
    have_header_ = true;
  }

  bool diedAfterLastShape(const ChildOutcome& child, bool died) {
    if (died)
      run_.result.notes.push_back(
          "the process died after its last shape (" +
          (child.timed_out ? fmt::format("stopped by its time limit of {:g} s", child.limit_s)
                           : signalName(child.signal)) +
          ")");
    return false;
  }

  // A shape's command failed and may have spoilt the context: the next child goes on.
  bool freshStart(int restart_at) {
    first_ = restart_at;
    if (++run_.fresh_starts > end_) {
      run_.error = fmt::format("gave up after {} new processes", run_.fresh_starts);
      return false;
    }
    return true;
  }

  // The child stopped with an error after some shapes (a command that failed outside a shape's
  // own checks): the shapes it finished stand, and it is not run again.
  bool stoppedWithError(std::string error, const std::string& last_words) {
    if (error.empty()) error = last_words;
    run_.error = fmt::format("the child stopped after shape #{}: {}",
                             run_.result.shapes.back().index, error.empty() ? "no message" : error);
    return false;
  }

  // The compiler died on the kernel: a build failure, which the spec's cases report (and charge,
  // docs/semantics.md), not the driver's answer to a shape.
  bool compilerCrashed(const ChildOutcome& child) {
    Finding f;
    f.kind = FindingKind::build_error;
    f.device = dev_.displayName();
    f.summary = fmt::format("the compiler of {} crashed ({}) while building the kernel",
                            driverName(dev_), signalName(child.signal));
    run_.result.failure = std::move(f);
    return false;
  }

  bool noShapeRan(const ChildOutcome& child, std::string error, const std::string& last_words) {
    if (error.empty() && !last_words.empty()) error = last_words;
    if (child.timed_out) {
      // A limit stopped it: said first, whatever the process last wrote.
      run_.error = fmt::format(
          "the child was stopped by its time limit of {:g} s before any shape ran ({}){}",
          child.limit_s,
          child.stalled ? "making a context or the driver's compile took longer"
                        : "--timeout, the whole family's limit",
          error.empty() ? "" : "; its last words: " + error);
    } else {
      run_.error = !error.empty() ? error
                   : !child.error.empty()
                       ? child.error
                       : fmt::format("the child exited ({}) before any shape ran",
                                     child.signal ? signalName(child.signal)
                                                  : "code " + std::to_string(child.exit_code));
    }
    return false;
  }

  // The child died on the shape it was running: the shape is recorded with how it died, and the
  // next child starts after it.
  bool shapeLost(const ChildOutcome& child, const ChildEvents& ev, double idle_s,
                 const std::string& last_words) {
    ShapeCheck lost = *ev.running;
    std::string how = child.timed_out ? "timeout" : signalName(child.signal);
    if (child.stalled)
      run_.result.notes.push_back(fmt::format(
          "shape #{} ran past {:.0f} s, and past {:.0f} s when rerun alone: its process was "
          "stopped",
          lost.index, first_stall_s_, idle_s));
    if (child.signal && !last_words.empty()) how += " (" + last_words + ")";
    chargeDeath(lost, child, ev.phase, how);
    countExpectedDeath(lost);
    run_.result.shapes.push_back(std::move(lost));
    first_ = run_.result.shapes.back().index + 1;
    if (child.timed_out && run_.result.shapes.back().prediction.mustSucceed()) {
      // A kernel that never ends would hang under every shape that must run, each costing the
      // limit: the family stops at the first. (A shape the driver should have refused and hung
      // on is the driver's answer, and the family goes on.)
      run_.result.notes.push_back(fmt::format(
          "stopped after shape #{}, which must run, did not end; shapes from #{} on were not run",
          first_ - 1, first_));
      return false;
    }
    if (++run_.restarts > kMaxRestarts) {
      run_.error = fmt::format("gave up after {} processes died", run_.restarts);
      return false;
    }
    return true;
  }

  // A kernel that the spec says kills its process (an as-published bug) may do so under any
  // shape that must run: that death is the kernel's finding, not the driver's answer. Where the
  // shape breaks a rule (a 0 in the local size), the driver's answer is what is judged.
  void chargeDeath(ShapeCheck& lost, const ChildOutcome& child, const std::string& phase,
                   const std::string& how) const {
    const FindingKind kind = child.timed_out ? FindingKind::timeout : FindingKind::crash;
    const auto expected = expectedFindings(spec_, dev_);
    const bool kernels_own = std::find(expected.begin(), expected.end(), kind) != expected.end();
    if (phase == "results") {
      // The enqueue was answered; the process died re-running the shape to check its results.
      lost.results_checked = true;
      if (!kernels_own) {
        Finding f;
        f.kind = kind;
        f.device = dev_.displayName();
        f.summary = child.timed_out
                        ? fmt::format(
                              "the process was stopped by its time limit of {:g} s while "
                              "checking the results of this shape",
                              child.limit_s)
                        : "the process died (" + how + ") while checking the results of this shape";
        lost.result_findings.push_back(f);
      }
    } else {
      lost.died = how;
      lost.conforms = false;
      if (kernels_own && lost.prediction.mustSucceed()) lost.spec_expected = true;
    }
  }

  // A shape that must run and died as the spec expects of its kernel adds to the row; one that
  // died otherwise ends it. At kExpectedDeathsBeforeSkipping the children launch no more shapes
  // that must run: each would cost a new process to die the same way.
  void countExpectedDeath(const ShapeCheck& lost) {
    if (!lost.prediction.mustSucceed()) return;
    expected_deaths_ = lost.spec_expected ? expected_deaths_ + 1 : 0;
    if (expected_deaths_ >= kExpectedDeathsBeforeSkipping) skip_must_run_ = true;
  }

  // What the family did not try, in the report's words: silence would read as shapes that passed.
  void noteShapesNotRun() {
    if (run_.not_run.empty()) return;
    std::string list;
    for (size_t i = 0; i < run_.not_run.size(); ++i)
      list += (i ? ", #" : "#") + std::to_string(run_.not_run[i]);
    run_.result.notes.push_back(fmt::format(
        "after {} shapes in a row that must run died as the spec expects of its kernel, the {} "
        "later shapes that must run were not launched ({}): each would have cost a new process to "
        "die the same way; the shapes the specification forbids were still enqueued and judged",
        kExpectedDeathsBeforeSkipping, run_.not_run.size(), list));
  }

  const ToolConfig& config_;
  const LaunchRunOptions& args_;
  const Spec& spec_;
  const DeviceInfo& dev_;
  const fs::path out_;
  const int end_;
  int first_;
  FamilyRun run_;
  bool have_header_ = false;
  int startup_failures_ = 0;
  // A shape that ran past its limit is run once more alone, with the limit doubled, before the
  // timeout stands: a busy machine is not a driver stuck on a launch (-1: no such rerun now).
  int confirming_ = -1;
  double first_stall_s_ = 0;
  int expected_deaths_ = 0;     // shapes that must run, died in a row as the spec expects
  bool skip_must_run_ = false;  // the children launch no more shapes that must run
};

}  // namespace

// Runs shapes [first, end) of one spec on one device in child processes; a child that dies is
// restarted after the shape it was running, which is recorded with how it died.
FamilyRun runLaunchIsolated(const ToolConfig& config, const LaunchRunOptions& args,
                            const Spec& spec, const DeviceInfo& dev, const fs::path& scratch) {
  return IsolatedFamily(config, args, spec, dev, scratch).run();
}

void to_json(nlohmann::json& j, const LaunchJob& job) {
  j = {{"spec", job.spec},
       {"device_id", job.device_id},
       {"shapes", job.shapes},
       {"first", job.first},
       {"seed", job.seed},
       {"no_results", job.no_results},
       {"simulator_checks", job.simulator_checks},
       {"kinds", job.kinds},
       {"skip_must_run", job.skip_must_run}};
}

void from_json(const nlohmann::json& j, LaunchJob& job) {
  job.spec = j.at("spec").get<std::string>();
  job.device_id = j.at("device_id").get<std::string>();
  job.shapes = j.value("shapes", job.shapes);
  job.first = j.value("first", job.first);
  job.seed = j.value("seed", job.seed);
  job.no_results = j.value("no_results", job.no_results);
  job.simulator_checks = j.value("simulator_checks", job.simulator_checks);
  job.kinds = j.value("kinds", job.kinds);
  job.skip_must_run = j.value("skip_must_run", job.skip_must_run);
}

}  // namespace clh
