// `clharness grade` and its sandboxed child (grade/command.hpp).
#include "grade/command.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "cl/compile_watch.hpp"
#include "cl/driver_alone.hpp"
#include "core/replay_sizes.hpp"
#include "core/run_folders.hpp"
#include "core/shard.hpp"
#include "core/sizes.hpp"
#include "grade/batch.hpp"
#include "grade/device_job.hpp"
#include "grade/disk_room.hpp"
#include "grade/html.hpp"
#include "grade/report.hpp"
#include "grade/sandbox.hpp"
#include "grade/sanitized_run.hpp"
#include "grade/source_guard.hpp"
#include "grade/speed.hpp"
#include "grade/submission_file.hpp"
#include "grade/time_limits.hpp"
#include "grade/trace.hpp"
#include "proc/child.hpp"
#include "proc/gate.hpp"
#include "proc/job.hpp"
#include "sim/oclgrind_session.hpp"

extern char** environ;

namespace fs = std::filesystem;
namespace gr = clh::grade;
using Clock = std::chrono::steady_clock;

namespace clh::grade {

namespace {

std::string clockText(double seconds) {
  auto s = static_cast<long>(seconds + 0.5);
  return s >= 3600 ? fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
                   : fmt::format("{}:{:02}", s / 60, s % 60);
}

bool processAlive(long pid) {
  return pid > 0 && (kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

// Leftovers of an interrupted batch whose process is gone: its scratch folder and half-written
// files.
void removeStale(const fs::path& out) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(out, ec)) {
    std::string name = e.path().filename().string();
    long pid = 0;
    if (name.rfind(".work-", 0) == 0)
      pid = std::atol(name.c_str() + 6);
    else if (size_t at = name.find(".tmp-"); at != std::string::npos)
      pid = std::atol(name.c_str() + at + 5);
    else
      continue;
    if (!processAlive(pid)) fs::remove_all(e.path(), ec);
  }
}

// The batch's shared state: what is done, what is running, and the progress line.
class Progress {
 public:
  Progress(size_t total, bool tty) : total_(total), tty_(tty), start_(Clock::now()) {}

  void started(const std::string& id) {
    std::lock_guard<std::mutex> lock(mutex_);
    running_.insert(id);
    drawLocked();
  }
  void finished(const std::string& id, const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex_);
    running_.erase(id);
    ++done_;
    clearLocked();
    std::cerr << fmt::format("[{}/{}] {}\n", done_, total_, line);
    drawLocked();
  }
  void tick() {
    std::lock_guard<std::mutex> lock(mutex_);
    drawLocked();
  }
  void close() {
    std::lock_guard<std::mutex> lock(mutex_);
    clearLocked();
  }

 private:
  void clearLocked() {
    if (tty_) std::cerr << "\r\033[K" << std::flush;
  }
  void drawLocked() {
    if (!tty_ || done_ == total_) return;
    double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    std::string names;
    for (const auto& r : running_) names += (names.empty() ? "" : ", ") + r;
    std::string eta = done_ ? "about " +
                                  clockText(elapsed / static_cast<double>(done_) *
                                            static_cast<double>(total_ - done_)) +
                                  " left"
                            : "estimating";
    std::string line = fmt::format("[{}/{}] grading {} | {} elapsed, {}", done_, total_,
                                   names.empty() ? "-" : names, clockText(elapsed), eta);
    std::cerr << "\r\033[K" << line.substr(0, 150) << std::flush;
  }

  std::mutex mutex_;
  size_t total_, done_ = 0;
  bool tty_;
  Clock::time_point start_;
  std::set<std::string> running_;
};

// The reference solution's run on one device before the batch: its times scale the limits, and
// the run stands for a submission's run of the very same job (referenceRun).
struct Calibration {
  gr::ReferenceTimes times;
  nlohmann::json job;  ///< the DeviceJob it ran
  gr::DeviceRun run;
};

struct Batch {
  const clh::ToolConfig& config;
  const GradeArgs& args;
  gr::Assignment assignment;
  gr::GradeContext ctx;
  std::vector<clh::DeviceInfo> devices;
  int cases = 0, simulator_cases = 0;
  fs::path scratch;
  const gr::RubricItem* speed = nullptr;
  bool sanitize = false;  ///< a sanitized run of each submission on each real device
  gr::TimePolicy policy;
  std::map<std::string, Calibration> reference;  ///< per device identity
  std::map<std::string, std::string> refused;    ///< id -> why its file was not read
  std::map<std::string, std::string> icd;  ///< device identity -> a vendors folder of its driver
  gr::SandboxState sandbox;
  std::vector<std::string> sandbox_inputs;  ///< what every grading process reads besides its own
};

// A vendors folder per device that names its driver alone, for its grading processes
// (cl/driver_alone.hpp): each would otherwise load and start every driver of the machine (PoCL's
// and Oclgrind's LLVM, PoCL's threads and hardware discovery), 0.1 s or so of a process that is
// otherwise about a second. None where the driver cannot be told or the user names drivers in
// OCL_ICD_FILENAMES: those devices' processes get the batch's folder, as before.
void writeDriverFolders(Batch& b) {
  for (const auto& dev : b.devices)
    if (std::string folder = clh::driverAloneFolder(dev); !folder.empty())
      b.icd[dev.identity()] = std::move(folder);
}

// One try of a kernel on one device: what the child left behind, and where it was stopped.
struct Attempt {
  gr::DeviceRun run;
  std::optional<gr::PhaseStop> stop;  ///< the phase that ran past its limit (or the CPU limit)
  gr::ReferenceTimes seen;            ///< the case and build times the child reported
  nlohmann::json job;                 ///< the DeviceJob the child was given
};

std::string secondsText(double s) {
  return s < 0.095 ? fmt::format("{:.3f} s", s)
         : s < 9.5 ? fmt::format("{:.1f} s", s)
                   : fmt::format("{:.0f} s", s);
}

// What a grading child is asked: the kernel file on the device, its cases, the simulator's trace,
// the timed runs and the sanitizer's plan.
gr::DeviceJob deviceJobFor(const Batch& b, const std::string& kernelPath,
                           const clh::DeviceInfo& dev,
                           const std::optional<gr::SimulatorTrace>& trace,
                           const std::optional<clh::Sizes>& referenceFirst, bool speedOnly,
                           const std::string& sanitizePlan) {
  gr::DeviceJob job;
  job.spec_file = b.assignment.spec_file;
  job.submission = fs::absolute(kernelPath).lexically_normal().string();
  job.device_id = dev.identity();
  job.seed = b.ctx.seed;
  job.cases = dev.simulator ? b.simulator_cases : b.cases;
  if (b.args.sizes) job.sizes = clh::parseSizes(*b.args.sizes);
  if (trace && dev.simulator && !b.args.sizes) job.trace = *trace;
  if (b.speed && !dev.simulator && !b.args.sizes && sanitizePlan.empty())
    job.speed = *b.speed->speed;
  job.reference_first = referenceFirst;
  job.speed_only = speedOnly && job.speed;
  job.sanitize_plan = sanitizePlan;
  return job;
}

// The sandbox: a scratch folder of its own (its home, temporary and cache folder too), only the
// environment OpenCL needs, the files it reads, CPU and memory limits. (The wall-clock limit of
// each phase is the caller's `stop`.)
clh::ChildOptions gradingChildOptions(const Batch& b, const clh::DeviceInfo& dev,
                                      const fs::path& jobDir, const gr::DeviceJob& job,
                                      const gr::TimePolicy& policy) {
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  // The CPU-time limit is a backstop behind the phase limits: every phase at its longest.
  const double cpuBudget = policy.scale *
                           (3 * policy.build_floor_s + policy.case_floor_s * (2 * job.cases + 64)) *
                           cores;
  clh::ChildOptions co;
  const auto icd = b.icd.find(dev.identity());
  co.env =
      gr::childEnvironment(environ, jobDir.string(), gr::gradingDriverDefaults(b.speed != nullptr),
                           icd == b.icd.end() ? std::string() : icd->second);
  co.cwd = jobDir.string();
  if (b.sandbox.on) {
    std::vector<std::string> inputs = b.sandbox_inputs;
    inputs.push_back(job.submission);
    co.sandbox = gr::gradingSandbox(jobDir.string(), inputs, *co.env);
    // The reference solution only where this process runs it (the speed item, the case a first
    // try stopped in); elsewhere the submission itself stands at its path, for the spec to load.
    const std::string reference =
        fs::absolute(b.assignment.spec.source_path).lexically_normal().string();
    if (job.speed || job.reference_first)
      co.sandbox->read_only.push_back(reference);
    else
      co.sandbox->shown_as.emplace_back(job.submission, reference);
  }
  co.cpu_limit_s = std::ceil(cpuBudget);
  co.memory_limit_bytes = static_cast<uint64_t>(b.args.memory_mb) * 1024 * 1024;
  return co;
}

// How the grading child ended, as the grade reads it: a CPU limit is its signal, not a timeout.
gr::ChildEnd gradingChildEnd(const clh::JobRun& run, const std::optional<gr::PhaseStop>& stop,
                             bool referenceBuilt) {
  const clh::ChildOutcome& child = run.child;
  gr::ChildEnd end;
  end.started = child.started;
  end.timed_out = child.timed_out && !child.cpu_limited;
  end.exit_code = child.exit_code;
  end.signal = child.cpu_limited ? SIGXCPU : child.signal;
  end.error = child.error;
  end.limit_s = stop ? stop->limit_s : 0;
  end.reference_built = referenceBuilt;  // calibrate() ran it on this device
  const std::string& log = run.stderr_text;
  end.log_tail = log.size() > 2000 ? "..." + log.substr(log.size() - 2000) : log;
  return end;
}

// One kernel file on one device, in a child process with its own limits: a wall-clock limit for
// each phase the child reports (the driver's compile apart from each case), CPU and memory limits.
// `jobDir` is the child's scratch folder (its PoCL cache survives into a confirming rerun).
Attempt runOnDevice(const Batch& b, const std::string& kernelPath, const clh::DeviceInfo& dev,
                    const gr::TimePolicy& policy, const fs::path& jobDir,
                    const std::optional<gr::SimulatorTrace>& trace,
                    const std::optional<clh::Sizes>& referenceFirst, bool speedOnly = false,
                    const std::string& sanitizePlan = "") {
  gr::RunDevice meta{dev.displayName(), clh::toString(dev.kind), dev.simulator,
                     !sanitizePlan.empty()};
  // The child works in a scratch folder of its own (its home, temporary and cache folder too),
  // with only the environment OpenCL needs.
  std::error_code mk;
  fs::create_directories(jobDir, mk);
  const std::string events = (jobDir / "run.events.jsonl").string();
  const gr::DeviceJob job =
      deviceJobFor(b, kernelPath, dev, trace, referenceFirst, speedOnly, sanitizePlan);

  gr::ReferenceTimes known;
  if (auto it = b.reference.find(dev.identity()); it != b.reference.end()) known = it->second.times;
  gr::TimePolicy p = policy;
  if (b.speed && !dev.simulator) p.speed_runs = 2 * gr::speedRounds(*b.speed->speed) + 2;
  gr::PhaseWatch watch(p, known);
  gr::LineTail tail(events);
  std::optional<gr::PhaseStop> stop;
  double lastT = 0;
  clh::ChildOptions co = gradingChildOptions(b, dev, jobDir, job, policy);
  co.stop = [&](double t) {
    lastT = t;
    tail.pollJson([&](const nlohmann::json& j) { watch.onEvent(j, t); });
    stop = watch.check(t);
    return stop.has_value();
  };
  // The child runs elsewhere: it is told where the repository is (its spec path is absolute).
  const clh::JobRun run =
      clh::runJob({b.config.exe, "--root", b.config.repo_root}, "__grade-one", job, events, co);
  if (!stop && run.child.cpu_limited) stop = watch.where(lastT);
  const gr::ChildEnd end = gradingChildEnd(run, stop, !known.cases.empty());
  Attempt a{gr::collectDeviceRun(run.events, end, meta), stop, watch.observed(), job};
  return a;
}

// The finding of a timeout confirmed by a rerun alone: the kernel's when its case (or compile)
// took ten times what the reference's did, the machine's or the driver's when the reference was
// as slow or could not be timed.
void chargeConfirmedTimeout(gr::DeviceRun& run, const gr::PhaseStop& first,
                            const gr::PhaseStop& second) {
  if (!run.lost || run.lost->findings.empty()) return;
  Finding& f = run.lost->findings.front();
  const std::string twice =
      fmt::format("stopped after {}, then again after {} when rerun alone with the limit doubled",
                  secondsText(first.elapsed_s), secondsText(second.elapsed_s));
  if (second.phase == "case" && run.simulator &&
      !(second.reference_s && *second.reference_s * 10 <= second.limit_s)) {
    // The simulator interprets the kernel: without the reference solution's time there to
    // compare, a timeout may be its slowness alone. It could not look; the kernel is not charged.
    run.end = gr::RunEnd::tool_error;
    f.kind = clh::FindingKind::tool_error;
    f.summary = fmt::format(
        "the simulator did not finish this case ({}) and the reference solution's time on it is "
        "unknown: the simulator may be too slow for it, not your kernel's fault",
        twice);
    return;
  }
  if (second.phase == "case") {
    // On a real device or on the simulator alike: the reference solution finished the same
    // case in a tenth of the limit or less (a printf flood, a loop without end are the kernel's).
    f.kind = clh::FindingKind::timeout;
    f.summary =
        fmt::format("your kernel did not finish this case within its time limit: {}", twice);
    f.summary += second.reference_s
                     ? fmt::format(
                           "; the reference solution took {} for the same case on this "
                           "device. A loop that never ends?",
                           secondsText(*second.reference_s))
                     : ". A loop that never ends?";
    return;
  }
  if (second.phase == "build" && second.reference_s && *second.reference_s * 10 <= second.limit_s) {
    f.kind = clh::FindingKind::build_error;
    f.summary = fmt::format(
        "the compiler did not finish building your kernel: {}; the reference solution built in "
        "{} on the same device. Something in the source makes the compiler work that hard (a "
        "macro that expands without end?)",
        twice, secondsText(*second.reference_s));
    return;
  }
  // Before any case (a context, a compile that no reference time explains), or between cases:
  // nothing says it is the kernel's.
  run.end = gr::RunEnd::tool_error;
  f.kind = clh::FindingKind::tool_error;
  f.summary = fmt::format(
      "the grading process ran past its limit outside your kernel's cases ({}: {}): the machine "
      "or the driver was too slow, not your kernel's fault",
      second.phase == "build" ? "the driver's compile" : "phase '" + second.phase + "'", twice);
}

// A speed ratio that would lose points is measured again before it is charged, as a timeout is:
// the timed case alone on the device, with nothing else of the batch beside it and the first
// try's compiled kernels kept (`jobDir`); the lower of the two medians counts (grade/speed.hpp).
void confirmSpeed(const Batch& b, const gr::Submission& s, const clh::DeviceInfo& dev,
                  const gr::TimePolicy& policy, const fs::path& jobDir, gr::DeviceRun& run) {
  if (!b.speed || dev.simulator || !run.speed) return;
  run.speed = gr::speedThatCounts(*b.speed, *run.speed, [&] {
    Attempt again;
    {
      clh::RunGate::Turn alone(clh::processRunGate(), true);
      again = runOnDevice(b, s.path, dev, policy, jobDir, std::nullopt, std::nullopt, true);
    }
    gr::AloneMeasurement m{again.run.speed, std::string(gr::toString(again.run.end))};
    if (again.run.lost && !again.run.lost->findings.empty())
      m.why_none = again.run.lost->findings.front().summary;
    return m;
  });
}

// The reference solution's times on each device, with the batch's seed and cases: what each
// case's limit is scaled by. A reference that does not finish leaves the floors alone.
void calibrate(Batch& b) {
  for (const auto& dev : b.devices) {
    if (clh::interruptRequested()) return;
    gr::TimePolicy generous = b.policy;
    generous.case_floor_s = std::max(60.0, 4 * b.policy.case_floor_s);
    const fs::path dir = b.scratch / ("reference." + dev.slug());
    const auto t0 = Clock::now();
    Attempt a = runOnDevice(b, b.assignment.spec.source_path, dev, generous, dir, std::nullopt,
                            std::nullopt);
    std::error_code ec;
    fs::remove_all(dir, ec);
    const double took = std::chrono::duration<double>(Clock::now() - t0).count();
    if (a.run.end != gr::RunEnd::completed || a.seen.cases.empty()) {
      std::cerr << fmt::format(
          "clharness grade: the reference solution did not finish on {} ({}): case limits there "
          "are --timeout ({} s) alone\n",
          dev.displayName(), gr::toString(a.run.end), b.policy.case_floor_s);
      continue;
    }
    double slowest = 0;
    for (const auto& [s, t] : a.seen.cases) slowest = std::max(slowest, t);
    std::cerr << fmt::format(
        "clharness grade: the reference solution on {}: {} cases in {} (slowest {}, longest "
        "compile {}); a case may take {}x its time, at least {} s\n",
        dev.displayName(), a.seen.cases.size(), secondsText(took), secondsText(slowest),
        secondsText(a.seen.build_s), b.policy.multiple, b.policy.case_floor_s);
    b.reference[dev.identity()] = {a.seen, a.job, a.run};
  }
}

// The calibration's run on `dev` when the run of submission `s` there would be the very job it
// ran: the reference solution's own file, at the batch's seed and cases, with no simulator trace
// asked. Only the limits differed, and the calibration's were the wider ones. A copy of the file
// elsewhere is another job, graded in a process of its own as any submission.
std::optional<gr::DeviceRun> referenceRun(const Batch& b, const gr::Submission& s,
                                          const clh::DeviceInfo& dev,
                                          const std::optional<gr::SimulatorTrace>& trace) {
  const auto it = b.reference.find(dev.identity());
  if (it == b.reference.end() || nlohmann::json(deviceJobFor(b, s.path, dev, trace, std::nullopt,
                                                             false, "")) != it->second.job)
    return std::nullopt;
  gr::DeviceRun run = it->second.run;
  run.note =
      "the reference solution's own file: its run that timed it for the batch's limits, "
      "at the same seed and cases, is its grade here";
  return run;
}

constexpr double kSanitizedScale = 4;  // a sanitized run's limits, in multiples of the run's

// The submission instrumented by the sanitizer on a real device: planned here (the rewriting
// helper runs outside the sandbox), run in a grading child with the run's limits. A run it could
// not finish is excused (the tool's limit), never charged.
gr::DeviceRun sanitizedRun(const Batch& b, const gr::Submission& s, const clh::DeviceInfo& dev,
                           const gr::TimePolicy& policy, const std::string& jobDir) {
  const auto t0 = Clock::now();
  std::string plan;
  try {
    std::optional<clh::Sizes> only;
    if (b.args.sizes) only = clh::parseSizes(*b.args.sizes);
    plan = gr::writeSanitizePlan(b.assignment.spec, dev, b.ctx.seed, only,
                                 fs::absolute(s.path).lexically_normal().string(), jobDir);
  } catch (const std::exception& e) {
    return gr::sanitizePlanFailed(dev, e.what());
  }
  // Its sizes are the largest of the ranges, which calibration never timed, and every access goes
  // through the runtime: its limits are four times the run's.
  gr::TimePolicy slower = policy;
  slower.scale *= kSanitizedScale;
  Attempt a;
  {
    clh::RunGate::Turn beside(clh::processRunGate(), false);
    a = runOnDevice(b, s.path, dev, slower, jobDir, std::nullopt, std::nullopt, false, plan);
  }
  gr::excuseLostSanitizedRun(a.run);
  a.run.seconds = std::chrono::duration<double>(Clock::now() - t0).count();  // the rewrite too
  std::error_code ec;
  fs::remove_all(jobDir, ec);
  return std::move(a.run);
}

gr::Grade gradeOne(const Batch& b, const gr::Submission& s, const std::string& fingerprint) {
  auto t0 = Clock::now();
  // A submission is built from its own text only: one that would read another file of this
  // machine is refused before any device sees it.
  const auto unread = b.refused.find(s.id);
  if (auto why = unread == b.refused.end() ? gr::refusedSource(s.text)
                                           : std::optional<std::string>(unread->second)) {
    gr::Grade g = gr::refusedGrade(b.assignment, s, *why, b.ctx);
    g.fingerprint = fingerprint;
    g.sandbox = b.sandbox.word;
    g.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return g;
  }
  std::vector<gr::DeviceRun> runs;
  clh::RunGate& gate = clh::processRunGate();
  // A kernel that hung on every real device will almost surely hang on the (slower) simulator
  // too: it gets a quarter of the limit there, enough for what a short run can still show, and
  // no second try.
  bool realRan = false, realHung = true;
  for (const auto& dev : b.devices) {
    gr::TimePolicy policy = b.policy;
    const bool shortened = dev.simulator && realRan && realHung;
    if (shortened) policy.case_floor_s = std::max(5.0, policy.case_floor_s / 4);
    // The simulator replays a real device's smallest wrong case, watching its wrong elements.
    const auto trace = dev.simulator ? gr::traceRequest(runs) : std::nullopt;
    const fs::path jobDir = b.scratch / (s.safe_id() + "." + dev.slug());
    Attempt a;
    if (auto calibrated = referenceRun(b, s, dev, trace)) {
      a.run = std::move(*calibrated);
    } else {
      clh::RunGate::Turn beside(gate, false);
      a = runOnDevice(b, s.path, dev, policy, jobDir, trace, std::nullopt);
    }
    if (a.run.end == gr::RunEnd::timeout && a.stop && !shortened) {
      // A timeout is confirmed before it is charged: the same run again, with nothing else of
      // the batch beside it, the limits doubled, the compiled kernels of the first try kept, and
      // the reference solution timed first at the case that was stopped.
      const gr::PhaseStop first = *a.stop;
      gr::TimePolicy doubled = policy;
      doubled.scale = 2;
      Attempt again;
      {
        clh::RunGate::Turn alone(gate, true);
        again = runOnDevice(b, s.path, dev, doubled, jobDir, trace,
                            first.phase == "case" || first.phase == "build"
                                ? first.sizes
                                : std::optional<clh::Sizes>());
      }
      if (again.run.end == gr::RunEnd::timeout && again.stop) {
        chargeConfirmedTimeout(again.run, first, *again.stop);
      } else {
        again.run.note = fmt::format(
            "a first try was stopped after {} ({}{}, limit {}); rerun alone with the limit "
            "doubled, it finished",
            secondsText(first.elapsed_s),
            first.phase == "case" ? "in the case" : "in phase '" + first.phase + "'",
            first.sizes && first.phase != "start" ? " " + clh::formatSizes(*first.sizes) : "",
            secondsText(first.limit_s));
      }
      a = std::move(again);
    }
    confirmSpeed(b, s, dev, policy, jobDir, a.run);
    std::error_code ec;
    fs::remove_all(jobDir, ec);
    runs.push_back(std::move(a.run));
    if (!dev.simulator) {
      realRan = true;
      realHung = realHung && runs.back().end == gr::RunEnd::timeout;
    }
    if (b.sanitize && !dev.simulator && gr::worthSanitizing(runs.back()) &&
        !clh::interruptRequested())
      runs.push_back(sanitizedRun(b, s, dev, policy, jobDir.string() + ".sanitize"));
  }
  gr::Grade g = gr::gradeSubmission(b.assignment, s, runs, b.ctx);
  g.fingerprint = fingerprint;
  g.sandbox = b.sandbox.word;
  g.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return g;
}

std::string outcomeLine(const gr::Grade& g) {
  std::string lost;
  for (const auto& i : g.items)
    if (!i.passed) {
      std::string kinds;
      for (auto k : i.kinds) kinds += (kinds.empty() ? "" : " ") + std::string(clh::toString(k));
      if (i.partial()) kinds += (kinds.empty() ? "" : " ") + std::string("partial");
      lost += fmt::format("{}{}{}", lost.empty() ? "" : ", ", i.id,
                          kinds.empty() ? "" : " (" + kinds + ")");
    }
  return fmt::format("{}: {}/{}{} ({:.1f} s)", g.submission, gr::formatPoints(g.points),
                     gr::formatPoints(g.max_points), lost.empty() ? "" : ", lost " + lost,
                     g.seconds);
}

// `jobs` threads running `worker`, and the progress line redrawn twice a second until they end.
void runWorkers(unsigned jobs, const std::function<void()>& worker, Progress& progress) {
  std::vector<std::thread> threads;
  for (unsigned j = 0; j < jobs; ++j) threads.emplace_back(worker);
  std::atomic<bool> finished{false};
  std::thread ticker([&] {
    while (!finished) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      if (!finished) progress.tick();
    }
  });
  for (auto& t : threads) t.join();
  finished = true;
  ticker.join();
}

// What an interrupted batch says: which submissions have a grade (this run's or one kept from
// before) and which have none, named up to a point.
std::string interruptedBatchLine(const std::vector<std::string>& done,
                                 const std::vector<std::string>& left) {
  auto names = [](const std::vector<std::string>& ids) {
    std::string list;
    for (size_t i = 0; i < ids.size() && i < 20; ++i) list += (i ? ", " : "") + ids[i];
    if (ids.size() > 20) list += fmt::format(" and {} more", ids.size() - 20);
    return ids.empty() ? std::string("none") : list;
  };
  return fmt::format(
      "clharness grade: interrupted by {}: {} of {} submissions graded ({}); not graded: {}. "
      "grades.csv and each graded submission's files are whole; summary.txt was not written. The "
      "same command grades the rest and keeps these grades.\n",
      clh::signalName(clh::interruptRequested()), done.size(), done.size() + left.size(),
      names(done), names(left));
}

// The batch's sandbox, decided once before any grading process starts (docs/grading.md): 0, or
// the exit code of a batch that `--sandbox required` refuses.
int setUpSandbox(Batch& b) {
  const gr::SandboxMode mode = b.args.sandbox == "off"        ? gr::SandboxMode::off
                               : b.args.sandbox == "required" ? gr::SandboxMode::required
                                                              : gr::SandboxMode::automatic;
  try {
    b.sandbox = gr::decideSandbox(mode, b.config.sandbox_refused);
  } catch (const std::runtime_error& e) {
    std::cerr << "clharness grade: " << e.what() << "\n";
    return clh::kExitNoDevice;
  }
  if (mode == gr::SandboxMode::off)
    std::cerr << "clharness grade: --sandbox off: grading processes run without a sandbox (for "
                 "debugging and tests only)\n";
  else if (!b.sandbox.on)
    std::cerr << "clharness grade: sandbox: limits only: this machine does not let clharness "
                 "make the grading sandbox ("
              << b.sandbox.why
              << "); each grading process has its environment, folder and limits alone "
                 "(docs/grading.md)\n";
  // What every grading process reads besides its submission: the assignment and the simulator's
  // plugin (the reference solution only where a process runs it: runOnDevice).
  b.sandbox_inputs = {b.assignment.spec_file, clh::findOclgrindPlugin()};
  return 0;
}

// The summary's last line: what the grading processes ran in.
std::string sandboxLine(const gr::SandboxState& s) {
  if (s.on)
    return "sandbox: namespaces (user, mount, PID, IPC, network), read-only file system but the "
           "scratch folder, seccomp\n";
  if (s.word == "off") return "sandbox: off (--sandbox off: debugging and tests only)\n";
  return "sandbox: limits only (" + s.why + ")\n";
}

// One submission of the batch: the fingerprint of what its grade depends on, and its grade (this
// run's, or one kept from before).
struct BatchSlot {
  gr::Submission sub;
  std::string fingerprint;
  std::optional<gr::Grade> grade;
};

// `clharness grade` step by step: the inputs read, the devices chosen and the batch's context, the
// folders made, the reference solution timed, the submissions graded by `jobs` workers and the
// batch's files written. A step that can end the command returns its exit code (0: go on).
class GradeCommand {
 public:
  GradeCommand(const clh::ToolConfig& config, const GradeArgs& args)
      : b_{config, args, {}, {}, {}, 0, 0, {}, nullptr, false, {}, {}, {}, {}, {}, {}},
        replay_(args.sizes.has_value()),
        gradescope_(args.format == "gradescope") {
    b_.policy.case_floor_s = args.timeout_s;
    b_.policy.build_floor_s = args.build_timeout_s;
  }

  int run() {
    if (!clh::parseSeed(b_.args.seed, seed_)) {
      std::cerr << "clharness grade: --seed: '" << b_.args.seed << "' is not an unsigned integer\n";
      return clh::kExitUsage;
    }
    if (const int rc = readInputs()) return rc;
    if (const int refused = setUpSandbox(b_)) return refused;  // before anything is looked for
    if (const int rc = selectDevices()) return rc;
    if (const int rc = refuseUnassessableItems()) return rc;
    setUpContext();
    if (const int rc = makeFolders()) return rc;
    clh::holdRunFolder(b_.scratch.string());  // a later run removes it if this one is killed
    clh::installInterruptHandlers();  // SIGINT, SIGTERM: no further submission; the console says
    writeDriverFolders(b_);
    // Each case's time limit is scaled by the reference solution's time for it (docs/grading.md).
    calibrate(b_);
    makeSlots();
    gradeAll();
    std::error_code ec;
    fs::remove_all(b_.scratch, ec);
    if (clh::interruptRequested()) {
      std::vector<std::string> done, left;
      for (const auto& s : slots_) (s.grade ? done : left).push_back(s.sub.id);
      std::cerr << interruptedBatchLine(done, left);
      return clh::interruptExitCode();
    }
    return writeResults();
  }

 private:
  // The assignment, the submissions (this shard's) and their text, and --sizes checked.
  int readInputs() {
    const GradeArgs& args = b_.args;
    try {
      b_.assignment = gr::loadAssignment(args.assignment, b_.config.repo_root);
      b_.assignment.spec_file = fs::absolute(b_.assignment.spec_file).lexically_normal().string();
      subs_ = gr::findSubmissions(args.paths);
      // A shard keeps every N-th submission in the order of their ids: N jobs (into one --out or
      // several) grade each exactly once.
      const clh::Shard shard = clh::shardFromOption(args.shard);
      if (shard.count > 1) {
        const size_t all = subs_.size();
        subs_ =
            clh::keepShard(std::move(subs_), shard, [](const gr::Submission& s) { return s.id; });
        std::cerr << fmt::format("clharness grade: shard {}/{}: {} of {} submission(s)\n",
                                 shard.index, shard.count, subs_.size(), all);
      }
      for (auto& s : subs_) {  // as regular files only: a link or a device is refused, not read
        gr::SubmissionBytes bytes = gr::readSubmissionFile(s.path);
        s.text = std::move(bytes.text);
        if (!bytes.refused.empty()) b_.refused[s.id] = std::move(bytes.refused);
      }
      if (args.sizes) clh::parseSizesFor(b_.assignment.spec, *args.sizes);
    } catch (const clh::SpecError& e) {
      std::cerr << "clharness grade: " << e.what() << "\n";
      return clh::kExitUsage;
    } catch (const std::invalid_argument& e) {
      std::cerr << "clharness grade: " << e.what() << "\n";
      return clh::kExitUsage;
    }
    return 0;
  }

  int selectDevices() {
    const GradeArgs& args = b_.args;
    b_.devices = clh::findDevices(b_.config, args.device_regex);  // keeps OCL_ICD_FILENAMES whole
    if (b_.devices.empty()) {
      std::cerr << "clharness grade: no usable device"
                << (args.device_regex.empty() ? ""
                                              : " matches --device '" + args.device_regex + "'")
                << "; `clharness devices` lists what was found\n";
      return clh::kExitNoDevice;
    }
    // Real devices first: a kernel that kills or hangs them is known before the slow simulator
    // runs.
    std::stable_partition(b_.devices.begin(), b_.devices.end(),
                          [](const clh::DeviceInfo& d) { return !d.simulator; });
    return 0;
  }

  // Rubric items no selected device can judge would score 0 for every submission: refused,
  // unless the instructor says so (then every feedback and the gradebook say it).
  int refuseUnassessableItems() const {
    if (b_.args.sizes) return 0;
    const std::string missing = unassessableItems();
    if (!missing.empty() && !b_.args.allow_unassessed) {
      std::cerr << "clharness grade: the devices selected cannot assess every item of the "
                   "rubric, so every submission would lose these points:\n"
                << missing
                << "Grade where they can be assessed, or pass --allow-unassessed to grade without "
                   "them (they score 0, and every feedback and the gradebook say so).\n";
      return clh::kExitNoDevice;
    }
    return 0;
  }

  // The items no selected device can judge, a line each with what would judge it.
  std::string unassessableItems() const {
    bool simulator = false, real = false;
    for (const auto& d : b_.devices) (d.simulator ? simulator : real) = true;
    std::string missing;
    for (const auto& item : b_.assignment.rubric.items) {
      // The sanitizer judges it on every real device; the simulator where there is one.
      if (item.check == gr::ItemCheck::simulator && !simulator && !(real && !b_.args.no_sanitize))
        missing += fmt::format(
            "  item '{}' ({} points, check: simulator): no simulator among the devices, and the "
            "sanitizer is off (--no-sanitize); install Oclgrind (Debian: apt-get install "
            "oclgrind) and let --device select it, or let the sanitizer judge it on the real "
            "devices\n",
            item.id, gr::formatPoints(item.points));
      if (item.check == gr::ItemCheck::speed && !real)
        missing += fmt::format(
            "  item '{}' ({} points, check: speed): no real device among the devices; install a "
            "driver (a GPU's, or PoCL: apt-get install pocl-opencl-icd) and let --device select "
            "it\n",
            item.id, gr::formatPoints(item.points));
    }
    return missing;
  }

  // What every grade of the batch shares: replay lines' words, cases, the speed item, the
  // sanitizer.
  void setUpContext() {
    const GradeArgs& args = b_.args;
    std::vector<std::string> batchDevices;
    for (const auto& d : b_.devices) batchDevices.push_back(d.displayName());
    // Replay lines name the assignment as a student can: by its name when that finds it.
    std::string assignmentWord = b_.assignment.name;
    {
      std::error_code same;
      fs::path byName =
          fs::path(b_.config.repo_root) / "specs" / "assignments" / (b_.assignment.name + ".yaml");
      if (!fs::equivalent(byName, b_.assignment.spec_file, same))
        assignmentWord = fs::path(b_.assignment.spec_file).filename().string();
    }
    b_.ctx = {b_.config.tool_name, assignmentWord, seed_, batchDevices};
    b_.cases = args.cases ? args.cases : b_.assignment.rubric.cases;
    b_.simulator_cases = args.cases ? args.cases : b_.assignment.rubric.simulator_cases;
    b_.speed = b_.assignment.rubric.firstOf(gr::ItemCheck::speed);
    b_.sanitize = !args.no_sanitize && b_.assignment.rubric.firstOf(gr::ItemCheck::simulator);
  }

  // The output folder (not for a replay: its feedback goes to stdout) and the scratch folder.
  int makeFolders() {
    out_ = b_.args.out.empty() ? fs::path("grades-" + b_.assignment.name) : fs::path(b_.args.out);
    std::error_code ec;
    if (!replay_) {
      fs::create_directories(out_, ec);
      if (ec || !fs::is_directory(out_)) {
        std::cerr << "clharness grade: cannot create the output folder " << out_ << "\n";
        return clh::kExitUsage;
      }
      removeStale(out_);
      if (auto why = gr::diskRoomProblem(out_.string())) {
        std::cerr << "clharness grade: " << *why << "\n";
        return clh::kExitUsage;
      }
      b_.scratch = fs::absolute(out_) / (".work-" + std::to_string(getpid()));
    } else {
      b_.scratch = fs::temp_directory_path() / ("clharness-grade-" + std::to_string(getpid()));
    }
    fs::create_directories(b_.scratch, ec);
    return 0;
  }

  // A slot per submission, with a grade kept from before where its fingerprint is unchanged;
  // `todo_` the rest.
  void makeSlots() {
    std::vector<std::string> deviceNames;
    for (const auto& d : b_.devices) {
      deviceNames.push_back(d.displayName());
      // A grade made without the sanitizer is not the one made with it: the fingerprint says so.
      if (b_.sanitize && !d.simulator) deviceNames.push_back(d.displayName() + " [sanitize]");
    }
    for (const auto& s : subs_) {
      BatchSlot slot{
          s,
          gr::gradeFingerprint(b_.assignment, b_.refused.count(s.id) ? b_.refused[s.id] : s.text,
                               seed_, b_.cases, b_.simulator_cases, deviceNames),
          {}};
      if (!replay_ && !b_.args.regrade) {
        auto old = gr::readGrade(gr::resultFiles(out_.string(), s).json);
        if (old && old->fingerprint == slot.fingerprint) slot.grade = std::move(old);
      }
      if (!slot.grade) todo_.push_back(slots_.size());
      slots_.push_back(std::move(slot));
    }
    std::string devList;
    for (const auto& d : deviceNames) devList += (devList.empty() ? "" : ", ") + d;
    std::cerr << fmt::format("clharness grade: {} on {}; {} to grade", b_.assignment.name, devList,
                             todo_.size());
    if (todo_.size() < slots_.size())
      std::cerr << fmt::format(", {} already graded (kept)", slots_.size() - todo_.size());
    std::cerr << "\n";
  }

  // The submissions left to grade, by --jobs workers (one per core by default, no more than there
  // are submissions), under the progress line.
  void gradeAll() {
    Progress progress(todo_.size(), isatty(STDERR_FILENO) == 1);
    unsigned jobs = b_.args.jobs > 0 ? static_cast<unsigned>(b_.args.jobs)
                                     : std::max(1u, std::thread::hardware_concurrency());
    jobs = std::min<unsigned>(jobs, static_cast<unsigned>(std::max<size_t>(1, todo_.size())));
    runWorkers(
        jobs, [&] { gradeQueue(progress); }, progress);
    progress.close();
  }

  // A worker: the next submission to grade until none is left or the batch is interrupted.
  void gradeQueue(Progress& progress) {
    for (size_t k = next_++; k < todo_.size() && !clh::interruptRequested(); k = next_++) {
      BatchSlot& slot = slots_[todo_[k]];
      progress.started(slot.sub.id);
      try {
        if (!gradeSlot(slot, progress)) break;  // its processes were ended: no grade
      } catch (const std::exception& e) {
        {
          std::lock_guard<std::mutex> lock(mutex_);
          ++failures_;
        }
        progress.finished(slot.sub.id, slot.sub.id + ": not graded: " + e.what());
      }
    }
  }

  // One submission graded and its files written; false when the batch was interrupted meanwhile.
  bool gradeSlot(BatchSlot& slot, Progress& progress) {
    // A disk that filled up fails builds and tools in the grading processes: a grade made then
    // (or about to be) is not the kernel's, and is neither made nor written.
    if (!replay_)
      if (auto why = gr::diskRoomProblem(out_.string())) throw std::runtime_error(*why);
    gr::Grade g = gradeOne(b_, slot.sub, slot.fingerprint);
    if (clh::interruptRequested()) return false;
    if (!replay_)
      if (auto why = gr::diskRoomProblem(out_.string())) throw std::runtime_error(*why);
    if (!replay_) gr::writeGradeFiles(gr::resultFiles(out_.string(), slot.sub), g, gradescope_);
    std::string line = outcomeLine(g);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      slot.grade = std::move(g);
      if (!replay_) writeGradebook();
    }
    progress.finished(slot.sub.id, line);
    return true;
  }

  // grades.csv from the grades so far (under mutex_ while workers run).
  void writeGradebook() {
    std::vector<gr::Grade> done;
    for (const auto& s : slots_)
      if (s.grade) done.push_back(*s.grade);
    std::ostringstream csv;
    gr::writeGradebookCsv(csv, b_.assignment.rubric, done);
    gr::writeFileAtomically((out_ / "grades.csv").string(), csv.str());
  }

  // A replay's feedback on stdout; a batch's gradebook, summary, page and Gradescope file.
  int writeResults() {
    std::vector<gr::Grade> grades;
    for (const auto& s : slots_)
      if (s.grade) grades.push_back(*s.grade);
    if (replay_) {
      for (const auto& g : grades) gr::writeFeedbackMarkdown(std::cout, g);
      return failures_ ? clh::kExitUsage : clh::kExitOk;
    }
    try {
      writeGradebook();
      std::ostringstream table;
      gr::writeSummaryTable(table, b_.assignment.rubric, grades);
      table << sandboxLine(b_.sandbox);
      gr::writeFileAtomically((out_ / "summary.txt").string(), table.str());
      if (!b_.args.html.empty()) {
        std::map<std::string, std::string> sources;
        for (const auto& s : slots_) sources[s.sub.id] = s.sub.path;
        std::ostringstream page;
        gr::writeGradeHtml(page, b_.assignment.rubric, grades, sources);
        gr::writeFileAtomically(b_.args.html, page.str());
      }
      if (gradescope_ && slots_.size() == 1 && slots_[0].grade)
        gr::writeFileAtomically((out_ / "results.json").string(),
                                gr::gradescopeResults(*slots_[0].grade).dump(2) + "\n");
      std::cout << table.str();
      std::cout << fmt::format("feedback, grades.csv and summary.txt in {}\n", out_.string());
    } catch (const std::exception& e) {
      std::cerr << "clharness grade: " << e.what() << "\n";
      return clh::kExitUsage;
    }
    return failures_ ? clh::kExitUsage : clh::kExitOk;
  }

  Batch b_;
  uint64_t seed_ = 1;
  const bool replay_, gradescope_;
  std::vector<gr::Submission> subs_;
  fs::path out_;
  std::vector<BatchSlot> slots_;
  std::vector<size_t> todo_;  ///< indices into slots_ of the submissions to grade
  std::atomic<size_t> next_{0};
  std::mutex mutex_;  ///< guards slots_' grades, the gradebook and failures_
  int failures_ = 0;
};

}  // namespace

int runGrade(const clh::ToolConfig& config, const GradeArgs& args) {
  return GradeCommand(config, args).run();
}

// The child: one submission on one device, in the sandbox runChild made (its limits, its
// environment and folder; its output in the job's log, for the simulator prints every diagnostic).
int runGradeChild(const clh::ToolConfig& config, const DeviceJob& job, clh::JobChannel& channel) {
  const clh::DeviceInfo found = clh::findDeviceAgain(config, job.device_id);
  clh::watchLaunchCompiles(channel.fd());  // a death in a launch's compile: the driver's
  gr::runDeviceJob(found, job, config.repo_root, channel.path() + ".oclgrind.jsonl",
                   [&channel](const nlohmann::json& line) { channel.write(line); });
  return clh::kExitOk;
}

}  // namespace clh::grade
