// The launch family of one spec on one device in child processes (launch/run.hpp).
#include "launch/run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <optional>

#include "cl/build_hook.hpp"
#include "cl/unit.hpp"
#include "core/shell.hpp"
#include "core/sizes.hpp"
#include "launch/json.hpp"
#include "proc/child.hpp"
#include "proc/gate.hpp"

namespace fs = std::filesystem;

namespace clh {

using launch::LaunchFamilyResult;
using launch::ShapeCheck;

// Runs shapes [first, end) of one spec on one device in child processes; a child that dies is
// restarted after the shape it was running, which is recorded with how it died.
FamilyRun runLaunchIsolated(const ToolConfig& config, const LaunchRunOptions& args,
                            const Spec& spec, const DeviceInfo& dev, const fs::path& scratch) {
  const auto started = std::chrono::steady_clock::now();
  FamilyRun run;
  run.spec = &spec;
  run.device = &dev;
  run.result.spec = spec.name;
  run.result.spec_file = spec.file;
  run.result.device = dev.displayName();
  const int end = args.shape >= 0 ? args.shape + 1 : args.shapes;
  int first = args.shape >= 0 ? args.shape : 0;
  bool have_header = false;
  int startup_failures = 0;
  const fs::path out = scratch / fmt::format("launch-{}-{}.jsonl", dev.slug(), spec.name);
  constexpr int kMaxRestarts = 100;
  // A shape that ran past its limit is run once more alone, with the limit doubled, before the
  // timeout stands: a busy machine is not a driver stuck on a launch (-1: no such rerun now).
  int confirming = -1;
  double first_stall_s = 0;
  while (first < end) {
    const int stop_at = confirming >= 0 ? confirming + 1 : end;
    const LaunchJob job{spec.file,       dev.identity(),        stop_at,   first, args.seed,
                        args.no_results, args.simulator_checks, args.kinds};
    // One shape that does not end (a driver stuck on a launch it should refuse: PoCL on a 0 in
    // the local size, at times) ends its child well before the whole family's limit.
    ChildOptions co;
    co.timeout_s = args.timeout_s;  // the watchdog watches the events file
    co.idle_s = std::min(args.timeout_s, args.shape_timeout_s) * (confirming >= 0 ? 2 : 1);
    // Making a context and the driver's compiles are timed on their own, generous limit.
    co.slow_idle_s = std::min(args.timeout_s, args.build_timeout_s) * (confirming >= 0 ? 2 : 1);
    co.slow_marker = "\"build_start\"";
    JobRun job_run;
    {
      RunGate::Turn turn(processRunGate(), confirming >= 0);
      job_run = runJob({config.exe}, "__launch", job, out.string(), co);
    }
    const ChildOutcome& child = job_run.child;
    const bool was_confirming = confirming >= 0;
    confirming = -1;

    std::optional<ShapeCheck> running;  // started, not finished
    std::optional<int> restart_at;      // the child stopped after a failed command
    std::string phase, error = job_run.error;
    bool done = false;
    bool building = false;  // between build_start and build_end: inside the driver's compiler
    int received = 0;       // shapes this child finished
    for (const auto& j : job_run.events) {
      const std::string ev = j.value("event", "");
      if (ev == "ready" || ev == "done") {
        LaunchFamilyResult header = launch::familyFromJson(j.at("family"));
        if (!have_header || ev == "done") {
          // The parent's own notes (shapes that stalled) stay beside the child's.
          std::vector<std::string> notes = std::move(run.result.notes);
          header.shapes = std::move(run.result.shapes);
          run.result = std::move(header);
          for (auto& n : notes)
            if (std::find(run.result.notes.begin(), run.result.notes.end(), n) ==
                run.result.notes.end())
              run.result.notes.push_back(std::move(n));
          have_header = true;
        }
        done |= ev == "done";
      } else if (ev == "start") {
        running = launch::shapeCheckFromJson(j.at("check"));
        phase = j.value("phase", "");
      } else if (ev == "shape") {
        run.result.shapes.push_back(launch::shapeCheckFromJson(j.at("check")));
        running.reset();
        ++received;
      } else if (ev == "restart") {
        restart_at = j.value("next", first);
      } else if (const auto inside = clh::buildEventState(ev)) {
        building = *inside;
      }
    }
    const std::string last_words = job_run.lastWords(1, 160);
    std::error_code ec;
    fs::remove(out.string() + ".oclgrind.jsonl", ec);
    const bool died = child.signal || child.timed_out;
    if (was_confirming && !died && received > 0) {
      run.result.notes.push_back(fmt::format(
          "shape #{} ran past {:.0f} s on a first try; rerun alone with the limit doubled, it "
          "finished (a busy machine, not the driver)",
          stop_at - 1, first_stall_s));
      if (stop_at < end) {
        first = stop_at;
        continue;
      }
    }
    if (done) {
      if (died)
        run.result.notes.push_back(
            "the process died after its last shape (" +
            (child.timed_out ? fmt::format("stopped by its time limit of {:g} s", child.limit_s)
                             : signalName(child.signal)) +
            ")");
      break;
    }
    if (restart_at && !died && *restart_at > first) {
      // A shape's command failed and may have spoilt the context: the next child goes on.
      first = *restart_at;
      if (++run.fresh_starts > end) {
        run.error = fmt::format("gave up after {} new processes", run.fresh_starts);
        break;
      }
      continue;
    }
    if (!died && received > 0) {
      // The child stopped with an error after some shapes (a command that failed outside a
      // shape's own checks): the shapes it finished stand, and it is not run again.
      if (error.empty()) error = last_words;
      run.error = fmt::format("the child stopped after shape #{}: {}",
                              run.result.shapes.back().index, error.empty() ? "no message" : error);
      break;
    }
    if (!died && !running && !done && ++startup_failures < 2) continue;  // once more: a busy ICD
    if (child.signal && building && !running) {
      // The compiler died on the kernel: a build failure, which the spec's cases report (and
      // charge, docs/semantics.md), not the driver's answer to a shape.
      Finding f;
      f.kind = FindingKind::build_error;
      f.device = dev.displayName();
      f.summary = fmt::format("the compiler of {} crashed ({}) while building the kernel",
                              driverName(dev), signalName(child.signal));
      run.result.failure = std::move(f);
      break;
    }
    if (!died || !running) {
      if (error.empty() && !last_words.empty()) error = last_words;
      if (child.timed_out) {
        // A limit stopped it: said first, whatever the process last wrote.
        run.error = fmt::format(
            "the child was stopped by its time limit of {:g} s before any shape ran ({}){}",
            child.limit_s,
            child.stalled ? "making a context or the driver's compile took longer"
                          : "--timeout, the whole family's limit",
            error.empty() ? "" : "; its last words: " + error);
      } else {
        run.error = !error.empty() ? error
                    : !child.error.empty()
                        ? child.error
                        : fmt::format("the child exited ({}) before any shape ran",
                                      child.signal ? signalName(child.signal)
                                                   : "code " + std::to_string(child.exit_code));
      }
      break;
    }
    if (child.stalled && !was_confirming) {
      // Confirmed before it is charged: this shape alone, nothing else of the run beside it.
      confirming = running->index;
      first_stall_s = co.idle_s;
      first = running->index;
      ++run.confirmed;
      continue;
    }
    ShapeCheck lost = *running;
    std::string how = child.timed_out ? "timeout" : signalName(child.signal);
    if (child.stalled)
      run.result.notes.push_back(fmt::format(
          "shape #{} ran past {:.0f} s, and past {:.0f} s when rerun alone: its process was "
          "stopped",
          running->index, first_stall_s, co.idle_s));
    if (child.signal && !last_words.empty()) how += " (" + last_words + ")";
    // A kernel that the spec says kills its process (an as-published bug) may do so under any
    // shape that must run: that death is the kernel's finding, not the driver's answer. Where
    // the shape breaks a rule (a 0 in the local size), the driver's answer is what is judged.
    const FindingKind kind = child.timed_out ? FindingKind::timeout : FindingKind::crash;
    const auto expected = expectedFindings(spec, dev);
    const bool kernels_own = std::find(expected.begin(), expected.end(), kind) != expected.end();
    if (phase == "results") {
      // The enqueue was answered; the process died re-running the shape to check its results.
      lost.results_checked = true;
      if (!kernels_own) {
        Finding f;
        f.kind = kind;
        f.device = dev.displayName();
        f.summary = child.timed_out
                        ? fmt::format(
                              "the process was stopped by its time limit of {:g} s while "
                              "checking the results of this shape",
                              child.limit_s)
                        : "the process died (" + how + ") while checking the results of this shape";
        lost.result_findings.push_back(f);
      }
    } else if (kernels_own && lost.prediction.mustSucceed()) {
      lost.died = how;
      lost.conforms = false;
      lost.spec_expected = true;
    } else {
      lost.died = how;
      lost.conforms = false;
    }
    run.result.shapes.push_back(std::move(lost));
    first = run.result.shapes.back().index + 1;
    if (child.timed_out && run.result.shapes.back().prediction.mustSucceed()) {
      // A kernel that never ends would hang under every shape that must run, each costing the
      // limit: the family stops at the first. (A shape the driver should have refused and hung
      // on is the driver's answer, and the family goes on.)
      run.result.notes.push_back(fmt::format(
          "stopped after shape #{}, which must run, did not end; shapes from #{} on were not run",
          first - 1, first));
      break;
    }
    if (++run.restarts > kMaxRestarts) {
      run.error = fmt::format("gave up after {} processes died", run.restarts);
      break;
    }
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return run;
}

void to_json(nlohmann::json& j, const LaunchJob& job) {
  j = {{"spec", job.spec},
       {"device_id", job.device_id},
       {"shapes", job.shapes},
       {"first", job.first},
       {"seed", job.seed},
       {"no_results", job.no_results},
       {"simulator_checks", job.simulator_checks},
       {"kinds", job.kinds}};
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
}

int newFailures(const LaunchFamilyResult& r, const launch::KnownDeviations& known) {
  int n = 0;
  for (const auto& c : r.shapes) n += !known.uncovered(c).empty();
  return n;
}

int failingShapes(const LaunchFamilyResult& r) {
  int n = 0;
  for (const auto& c : r.shapes) n += !launch::failureKeys(c).empty();
  return n;
}

bool unexpectedFailure(const FamilyRun& run) {
  if (!run.result.failure) return false;
  const auto expected = expectedFindings(*run.spec, *run.device);
  return std::find(expected.begin(), expected.end(), run.result.failure->kind) == expected.end();
}

std::string launchReplay(const std::string& tool, const FamilyRun& run, int shape) {
  return fmt::format(
      "{} launch {} --device {} --seed {} --shape {}", tool, shellQuote(run.spec->file),
      shellQuote(exactDeviceRegex(run.device->displayName())), run.result.seed, shape);
}

UnitResult launchUnit(const ToolConfig& config, const FamilyRun& run, uint64_t seed) {
  const LaunchFamilyResult& r = run.result;
  UnitResult u = unitFor(*run.spec, *run.device, seed, "launch");
  u.seconds = run.seconds;
  u.cases_run = static_cast<int>(r.shapes.size());
  if (!run.error.empty()) {
    // The children could not run the family: a driver that took them down while setting up (a
    // compiler crash), or a child that could not start. Nothing is known of the kernel here.
    Finding f;
    f.kind = FindingKind::tool_error;
    f.device = u.device;
    f.summary = fmt::format("{} failed while running the launch family, not the kernel: {}",
                            driverName(*run.device), run.error);
    CaseOutcome c;
    c.sizes = r.sizes;
    c.findings.push_back(std::move(f));
    u.failing = std::move(c);
    u.status = Status::tool_error;
    u.message = fmt::format("the launch family stopped after {} shape(s): {} ({})", r.shapes.size(),
                            run.error, driverName(*run.device));
    return u;
  }
  if (r.failure) {
    u.status = Status::skipped;
    u.message = unexpectedFailure(run)
                    ? "no launch shape ran: " + r.failure->summary + " (the spec's cases report it)"
                    : "no launch shape ran: " + r.failure->summary + ", as the spec expects";
    return u;
  }
  // The kernel's verdict: the launches that must run, their results, and what the spec expects of
  // its kernel. What the driver answered to launches the specification forbids goes to the
  // driver section (launch::chargedToDriver), never here.
  int checked = 0, kernel_failures = 0, driver_failures = 0;
  for (const auto& c : r.shapes) {
    checked += c.results_checked;
    if (launch::failureKeys(c).empty()) continue;
    (launch::chargedToDriver(c) ? driver_failures : kernel_failures) += 1;
  }
  std::string families;
  for (const auto& k : r.kinds) families += (families.empty() ? "" : ", ") + k;
  u.message = fmt::format(
      "{} launch shapes ({}) of the case {}: {} launches had their results checked; {} shape(s) "
      "failed in a way that is the kernel's; {} shape(s) got a driver answer the specification "
      "does not allow (the driver section lists them){}{}{}",
      r.shapes.size(), families, formatSizes(r.sizes), checked, kernel_failures, driver_failures,
      r.specExpected()
          ? fmt::format("; {} failed as the spec expects of its kernel", r.specExpected())
          : "",
      run.restarts ? fmt::format("; {} child process(es) died and were replaced", run.restarts)
                   : "",
      run.fresh_starts
          ? fmt::format("; {} shape(s) whose command failed were followed by a new process (a "
                        "context the failure may have spoilt)",
                        run.fresh_starts)
          : "");
  for (const auto& note : r.notes) u.message += "; " + note;
  if (kernel_failures == 0) {
    u.status = Status::pass;
    return u;
  }
  // One finding per kind of kernel failure, on its first shape.
  CaseOutcome c;
  c.sizes = r.sizes;
  const launch::KnownDeviations none;
  for (const auto& g : launch::groupFailures(r, none)) {
    const ShapeCheck& s = *g.shapes.front();
    if (launch::chargedToDriver(s)) continue;
    const std::string where =
        fmt::format("{} shape(s) like #{} {}", g.shapes.size(), s.index, s.text);
    if (g.key.results.empty()) {
      Finding f;
      f.kind = s.died.empty()        ? FindingKind::launch_error
               : s.died == "timeout" ? FindingKind::timeout
                                     : FindingKind::crash;
      f.device = u.device;
      f.kernel = run.spec->launches.at(0).kernel;
      f.summary = fmt::format("{}: a launch that must run got {}", where, s.gotText());
      c.findings.push_back(std::move(f));
    } else {
      for (const auto& rf : s.result_findings) {
        Finding g2 = rf;
        g2.summary = fmt::format("{} (got {}): {}", where, s.gotText(), g2.summary);
        c.findings.push_back(std::move(g2));
      }
    }
    if (u.replay.empty()) u.replay = launchReplay(config.tool_name, run, s.index);
  }
  u.failing = std::move(c);
  u.status = Status::fail;
  return u;
}

}  // namespace clh
