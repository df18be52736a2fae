// `clharness scan` and its child (scan/command.hpp).
#include "scan/command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cl/driver_alone.hpp"
#include "core/files.hpp"
#include "core/shell.hpp"
#include "proc/child.hpp"
#include "scan/grid.hpp"
#include "scan/scan.hpp"
#include "scan/stopped.hpp"
#include "sim/check_fallback.hpp"
#include "sim/oclgrind_log.hpp"
#include "sim/oclgrind_session.hpp"
#include "sim/tool_failure.hpp"

namespace fs = std::filesystem;

namespace clh::scan {

namespace {

std::vector<size_t> parseDims(const std::string& option, const std::string& text) {
  std::vector<size_t> out;
  std::string item;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',' && text[i] != 'x') {
      item += text[i];
      continue;
    }
    if (item == "*" && option == "--global") {  // a free size, explored (scan.hpp)
      out.push_back(clh::scan::kScanFreeSize);
      item.clear();
      continue;
    }
    size_t used = 0;
    unsigned long long v = 0;
    try {
      v = std::stoull(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || v == 0)
      throw clh::scan::ScanUsageError(option + " '" + text +
                                      "': expected 1 to 3 positive sizes, e.g. 64,64" +
                                      (option == "--global" ? " ('*': a free size)" : ""));
    out.push_back(v);
    item.clear();
  }
  if (out.size() > 3) throw clh::scan::ScanUsageError(option + " '" + text + "': at most 3 sizes");
  return out;
}

bool isSimFile(const std::string& file) {
  return fs::path(file).extension() == ".sim";
}

// --seed, read once (the child gets the number).
uint64_t scanSeed(const std::string& text) {
  try {
    size_t used = 0;
    const uint64_t seed = std::stoull(text, &used, 0);
    if (used != text.size()) throw std::invalid_argument("seed");
    return seed;
  } catch (const std::exception&) {
    throw clh::scan::ScanUsageError("--seed '" + text + "': not an unsigned integer");
  }
}

clh::scan::ScanOptions toOptions(const ScanArgs& a, uint64_t seed) {
  clh::scan::ScanOptions o;
  if (isSimFile(a.file)) {  // an Oclgrind .sim: it gives the kernel, the sizes and the arguments
    if (!a.kernel.empty() || !a.global.empty() || !a.local.empty() || !a.args.empty())
      throw clh::scan::ScanUsageError(
          a.file + ": a .sim file gives the kernel, --global, --local and every --arg");
    o = clh::scan::simScanOptions(a.file, a.build_options);
    if (!fs::is_regular_file(o.source_path))
      throw clh::scan::ScanUsageError(a.file + ": no kernel file " + o.source_path);
  } else {
    if (a.kernel.empty() || a.global.empty())
      throw clh::scan::ScanUsageError("--kernel and --global are required (or give a .sim file)");
    o.source_path = a.file;
    o.kernel = a.kernel;
    o.build_options = a.build_options;
    o.global = parseDims("--global", a.global);
    if (!a.local.empty()) o.local = parseDims("--local", a.local);
  }
  for (const auto& kv : a.args) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size())
      throw clh::scan::ScanUsageError("--arg '" + kv + "': expected NAME=VALUE");
    o.args[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  o.stub_bodiless = a.stub_bodiless;
  o.max_items = a.max_items;
  o.sanitize = a.sanitize;
  // A real device runs the grid as given: the simulator's budget is not the sanitizer's.
  if (a.sanitize && a.max_items == kScanMaxItems) o.max_items = 0;
  if (a.tries < 1) throw clh::scan::ScanUsageError("--tries: at least 1");
  if (o.sim_path.empty()) o.tries = a.tries;
  for (const auto& word : a.suppress) {
    auto kind = clh::findingKindFromString(word);
    if (!kind) throw clh::scan::ScanUsageError("--suppress '" + word + "': not a finding kind");
    o.suppress.push_back(*kind);
  }
  o.seed = seed;
  return o;
}

// While a child scans: reads the plugin's progress lines from its log and, once the launch has
// run a few seconds, shows on stderr how far it is and an estimate of what is left; and from the
// child's events, a line as each launch ends (a scan stopped later has at least said that much).
class ProgressShower {
 public:
  ProgressShower(std::string log, std::string events)
      : log_(std::move(log)), events_(std::move(events)), thread_([this] { run(); }) {}
  ~ProgressShower() { stop(); }
  void stop() {
    done_ = true;
    if (thread_.joinable()) thread_.join();
  }

 private:
  void run() {
    clh::LineTail tail(log_), events(events_);
    launch_start_ = std::chrono::steady_clock::now();
    while (!done_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      tail.pollJson([&](const nlohmann::json& j) { onLogLine(j); });
      events.pollJson([&](const nlohmann::json& j) { onEvent(j); });
    }
    events.pollJson([&](const nlohmann::json& j) { onEvent(j); });
    if (open_line_) std::cerr << "\n";
  }

  void onLogLine(const nlohmann::json& j) {
    const std::string event = j.value("event", "");
    if (event == "kernel_begin") {
      ++launches_;
      launch_start_ = std::chrono::steady_clock::now();
    }
    if (event != "progress") return;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - launch_start_).count();
    const long doneGroups = j.value("groups_done", 0L), total = j.value("groups_total", 0L);
    if (elapsed < 3 || total <= 0 || doneGroups <= 0) return;
    const double left =
        elapsed * static_cast<double>(total - doneGroups) / static_cast<double>(doneGroups);
    std::cerr << fmt::format(
        "\rscan: launch {}: {} of {} work-groups ({:.0f}%), about {:.0f} s left   ", launches_,
        doneGroups, total, 100.0 * static_cast<double>(doneGroups) / static_cast<double>(total),
        left);
    open_line_ = true;
  }

  // The child's result so far (`partial`): a line for each launch that ended since the last.
  void onEvent(const nlohmann::json& j) {
    if (j.value("event", "") != "partial" || !j.contains("value")) return;
    const auto& value = j.at("value");
    const auto tries = value.value("tries", nlohmann::json::array());
    const size_t planned = tries.size() + value.value("not_run", nlohmann::json::array()).size();
    for (; shown_ < tries.size(); ++shown_) {
      const auto& t = tries[shown_];
      const size_t found = t.value("findings", size_t{0});
      std::cerr << fmt::format("{}scan: launch {} of {} ({}) done: {} diagnostic{}, {:.2f} s\n",
                               open_line_ ? "\n" : "", shown_ + 1, planned,
                               t.value("values", std::string()), found, found == 1 ? "" : "s",
                               t.value("seconds", 0.0));
      open_line_ = false;
    }
  }

  std::string log_, events_;
  std::atomic<bool> done_{false};
  bool open_line_ = false;  // a progress line without its newline yet
  long launches_ = 0;
  std::chrono::steady_clock::time_point launch_start_;
  size_t shown_ = 0;  // launches said done
  std::thread thread_;
};

}  // namespace

SimulatorLimits simulatorLimits(double timeout_s) {
  const unsigned threads = clh::scan::simulatorThreads();
  return {timeout_s * threads, std::max(timeout_s * kWallBackstop, kWallBackstopFloor)};
}

namespace {

// Whether races of equal values were looked for: the simulator leaves them out unless asked.
std::string sameValueRacesNote(bool uniform_writes) {
  if (uniform_writes)
    return "write-write races in which the work-items store the same value are reported too "
           "(--uniform-writes)";
  return "write-write races in which every work-item stores the same value are not looked for "
         "(the simulator leaves them out; --uniform-writes reports them: OpenCL C makes any data "
         "race undefined)";
}

// The scan in this process (the child's, or --no-isolate's), the simulator's log at `log_base`
// + ".oclgrind.jsonl"; throws ScanUsageError for options that cannot be used.
clh::scan::ScanResult scanHere(
    const clh::ToolConfig& config, const ScanJob& job, const std::string& log_base,
    const std::function<void(const clh::scan::ScanResult&)>& progress = {}) {
  const ScanArgs& a = job.args;
  clh::scan::ScanOptions o = toOptions(a, job.seed);
  o.max_groups = job.max_groups;
  o.cpu_budget_s = job.cpu_budget_s;
  if (job.optimised) ::setenv(clh::kSimulatorBuildVariable, "optimised", 1);
  // A local size over Oclgrind's largest work-group (1024): raise it, before Oclgrind is loaded
  // (it reads OCLGRIND_MAX_WGSIZE when asked for the device's limits).
  size_t groupItems = 1;
  const std::vector<size_t> local =
      o.local.empty() ? o.local : shrinkGrid(o.global, o.local, o.max_items).local;
  for (size_t l : local) groupItems *= l;
  if (groupItems > 1024) ::setenv("OCLGRIND_MAX_WGSIZE", std::to_string(groupItems).c_str(), 1);
  auto devices = clh::findDevices(config, a.device_regex);
  if (devices.empty()) throw std::runtime_error("the device is gone");
  const clh::DeviceInfo& dev = devices.front();
  std::unique_ptr<clh::OclgrindSession> sim;
  if (dev.simulator) {
    std::string plugin = clh::findOclgrindPlugin();
    if (plugin.empty())
      throw std::runtime_error("the simulator's diagnostics plugin was not found");
    sim = std::make_unique<clh::OclgrindSession>(plugin, log_base + ".oclgrind.jsonl");
    if (groupItems > 1024) sim->setMaxWorkGroupSize(groupItems);
    sim->setUniformWrites(a.uniform_writes);
    sim->applyToProcess();
  }
  clh::scan::ScanResult r;
  {
    clh::DeviceSession session(dev, sim.get());
    r = clh::scan::runScan(session, o, progress);
    if (sim) r.notes.push_back(sameValueRacesNote(a.uniform_writes));
    if (job.optimised)
      r.notes.push_back(
          "the unoptimised build ran past the time limit (--timeout) on the smallest grid: the "
          "simulator checked the optimised build, in which an access the compiler removed (a "
          "store nobody reads, a loop with no effect) is not checked");
  }
  if (sim) fs::remove(sim->logPath());
  return r;
}

}  // namespace

void to_json(nlohmann::json& j, const ScanJob& job) {
  const ScanArgs& a = job.args;
  j = {{"file", a.file},
       {"kernel", a.kernel},
       {"global", a.global},
       {"local", a.local},
       {"build_options", a.build_options},
       {"args", a.args},
       {"suppress", a.suppress},
       {"device", a.device_regex},
       {"seed", job.seed},
       {"tries", a.tries},
       {"max_items", a.max_items},
       {"uniform_writes", a.uniform_writes},
       {"stub_bodiless", a.stub_bodiless},
       {"sanitize", a.sanitize},
       {"max_groups", job.max_groups},
       {"optimised", job.optimised},
       {"cpu_budget_s", job.cpu_budget_s}};
}

void from_json(const nlohmann::json& j, ScanJob& job) {
  ScanArgs& a = job.args;
  a.file = j.at("file").get<std::string>();
  a.kernel = j.value("kernel", a.kernel);
  a.global = j.value("global", a.global);
  a.local = j.value("local", a.local);
  a.build_options = j.value("build_options", a.build_options);
  a.args = j.value("args", a.args);
  a.suppress = j.value("suppress", a.suppress);
  a.device_regex = j.value("device", a.device_regex);
  job.seed = j.value("seed", job.seed);
  a.tries = j.value("tries", a.tries);
  a.max_items = j.value("max_items", a.max_items);
  a.uniform_writes = j.value("uniform_writes", a.uniform_writes);
  a.stub_bodiless = j.value("stub_bodiless", a.stub_bodiless);
  a.sanitize = j.value("sanitize", a.sanitize);
  job.max_groups = j.value("max_groups", job.max_groups);
  job.optimised = j.value("optimised", job.optimised);
  job.cpu_budget_s = j.value("cpu_budget_s", job.cpu_budget_s);
}

// The child side: the scan on the one device the regex selects; a usage error is its answer too.
int runChildScan(const clh::ToolConfig& config, const ScanJob& job, clh::JobChannel& channel) {
  try {
    // The result so far after each launch: what the parent reports if it stops this process.
    channel.result(scanHere(config, job, channel.path(), [&](const clh::scan::ScanResult& r) {
      channel.send("partial", {{"value", r}});
    }));
  } catch (const clh::scan::ScanUsageError& e) {
    channel.send("usage_error", {{"message", e.what()}});
  }
  return clh::kExitOk;
}

namespace {

// One later stage of a scan that ran past its share of the time limit with nothing looked at: at
// most `max_groups` work-groups a dimension, or (0) the optimised build.
struct LaterStage {
  size_t max_groups = 0;
};

// The least share of the limit a later stage is started with (seconds of a simulator thread).
constexpr double kLeastStage = 0.5;

// One device's scan in child processes, in steps, within the whole scan's budget: the first
// attempt (again without a check that crashed the simulator); when it ran past its share before
// its first launch ended, with nothing found, smaller grids and the optimised build in what is
// left; then the result: the child's, one made from what it had sent when it was stopped, or a
// finding saying why there is none.
class DeviceScan {
 public:
  DeviceScan(const clh::ToolConfig& config, const ScanArgs& a,
             const clh::scan::ScanOptions& options, uint64_t seed, const clh::DeviceInfo& dev,
             const fs::path& scratch, const clh::scan::ScanBudget& budget)
      : config_(config),
        a_(a),
        options_(options),
        dev_(dev),
        out_(scratch / (dev.slug() + ".json")),  // the events; the log beside them
        job_{a, seed},
        budget_(budget) {
    job_.args.device_regex = dev.identity();
  }

  // Every attempt; then usageError() or result(). The first attempt has half the budget left when
  // a later stage could follow (each later one half of what is left, the last all of it).
  void run() {
    later_ = laterStages();
    share_ = budget_.left(dev_.simulator) / (later_.empty() ? 1 : 2);
    fallback_ = runAttempt();
    for (; ran_ < later_.size() && needsSmaller() && !clh::interruptRequested(); ++ran_) {
      const double left = budget_.left(dev_.simulator);
      if (left < kLeastStage) {
        out_of_time_ = true;
        break;
      }
      share_ = ran_ + 1 == later_.size() ? left : left / 2;
      if (later_[ran_].max_groups)
        job_.max_groups = later_[ran_].max_groups;
      else
        job_.optimised = true;
      fallback_ = runAttempt();
    }
  }

  const std::string& usageError() const { return usage_error_; }
  /// The interrupt that ended the scan (SIGINT, SIGTERM), or 0.
  int interrupted() const { return child_.interrupted ? clh::interruptRequested() : 0; }

  // The child's result, the report of a child that was stopped, or a finding saying why there is
  // none.
  clh::scan::ScanResult result() const {
    clh::scan::ScanResult r;
    r.device = dev_.displayName();
    r.kernel = options_.kernel;
    r.source = options_.source_path;
    r.global = options_.global;  // as given; a finished child's result says what ran
    r.local = options_.local;
    r.build_options = options_.build_options;
    const bool stopped = child_.timed_out || child_.interrupted;
    if (result_ && !stopped && !child_.signal) {
      r = *result_;
    } else if (stopped) {
      r = clh::scan::stoppedScan(partial_ ? *partial_ : r, in_log_, options_, stopCause(),
                                 timeoutSummary());
    } else {
      r.findings.push_back(failure(r));
    }
    if (!fallback_.note.empty()) r.notes.push_back(fallback_.note);
    return r;
  }

 private:
  // The later stages this grid and build allow: on the simulator, two work-groups a dimension,
  // then one, then the optimised build (unless the user's options chose a build level).
  std::vector<LaterStage> laterStages() const {
    std::vector<LaterStage> out;
    if (!dev_.simulator) return out;
    std::vector<size_t> groups;
    try {
      const clh::scan::PlannedGrid plan = clh::scan::planGrid(options_, dev_);
      groups = groupCounts(plan.global, plan.local);
    } catch (const clh::scan::ScanUsageError&) {
      // the child says why it cannot run; nothing to shrink
    }
    const size_t most = groups.empty() ? 0 : *std::max_element(groups.begin(), groups.end());
    for (size_t cap : {size_t{2}, size_t{1}})
      if (most > cap) out.push_back({cap});
    const bool levelNotChosen =  // the user's options neither optimise nor keep it as written
        clh::isUnoptimisedBuild(clh::preferredSimulatorOptions(options_.build_options)) &&
        !clh::isUnoptimisedBuild(options_.build_options);
    if (levelNotChosen) out.push_back({0});
    return out;
  }

  // One child with the checks in `skip` left off, on this stage's share of what is left; true
  // when the simulator crashed. The outcome is kept unless it is a crash of an attempt without
  // checks (the first attempt's stands).
  bool attempt(const std::vector<clh::OclgrindCheck>& skip) {
    const std::string log = out_.string() + ".oclgrind.jsonl";
    std::error_code gone;
    fs::remove(log, gone);
    ProgressShower progress(log, out_.string());
    const double limit = std::min(share_, budget_.left(dev_.simulator));
    clh::ChildOptions co;
    co.timeout_s = std::max(limit, 0.1);
    co.env = clh::deviceChildEnvironment(dev_);  // its driver alone (cl/driver_alone.hpp)
    if (dev_.simulator) {  // on the simulator the limit is CPU time (SimulatorLimits)
      co.cpu_limit_s = std::max(1.0, std::round(limit * clh::scan::simulatorThreads()));
      job_.cpu_budget_s = co.cpu_limit_s;
      co.timeout_s = std::max(1.0, simulatorLimits(a_.timeout_s).wall_s - budget_.elapsed());
    }
    clh::JobRun run =
        clh::runJob(clh::withSkippedChecks({config_.exe}, skip), "__scan", job_, out_.string(), co);
    if (run.child.cpu_limited) run.child.limit_s = a_.timeout_s;  // the user's --timeout
    progress.stop();
    const bool crashed = run.child.signal != 0 && !run.child.timed_out && !run.child.interrupted;
    if (skip.empty() || !crashed) keep(run, log);
    return dev_.simulator && crashed;
  }

  void keep(const clh::JobRun& run, const std::string& log) {
    child_ = run.child;
    result_ = run.result<clh::scan::ScanResult>();
    partial_.reset();
    usage_error_.clear();
    for (const auto& e : run.events) {
      const std::string event = e.value("event", "");
      if (event == "usage_error") usage_error_ = e.value("message", "");
      if (event == "partial" && e.contains("value"))
        partial_ = e.at("value").get<clh::scan::ScanResult>();
    }
    error_ = run.error;
    stderr_text_ = run.stderr_text;
    // Read once: a launch's log can be hundreds of megabytes.
    const bool stopped = run.child.timed_out || run.child.interrupted;
    in_log_ = stopped && dev_.simulator
                  ? clh::scan::findingsInTheLog(log, options_, dev_.displayName())
                  : std::vector<clh::Finding>{};
  }

  // Every attempt crashed: not a check's crash, and the first attempt's outcome (kept) stands.
  clh::CheckFallbackOutcome runAttempt() {
    return clh::runWithCheckFallback(
        [this](const std::vector<clh::OclgrindCheck>& skip) { return attempt(skip); });
  }

  // The child ran past its share before its first launch ended, and the simulator had found
  // nothing: a smaller grid or build may end in time. Findings made before the limit stand, and a
  // launch that ended has looked at the kernel, so neither runs again.
  bool needsSmaller() const {
    return child_.timed_out && !child_.interrupted && in_log_.empty() &&
           (!partial_ || (partial_->tries.empty() && partial_->findings.empty()));
  }

  clh::scan::StopCause stopCause() const {
    clh::scan::StopCause c;
    c.timed_out = child_.timed_out;
    c.signal = interrupted();
    c.limit_s = a_.timeout_s;
    c.simulator = dev_.simulator;
    return c;
  }

  // The timeout finding of a scan whose first launch did not end within the limit.
  std::string timeoutSummary() const {
    const std::string ran = stagesInWords(0, ran_, ", then ");
    return fmt::format("the kernel ran past the {:g} s limit (--timeout, for the whole scan{}){}{}",
                       a_.timeout_s, dev_.simulator ? "; CPU time on each simulator thread" : "",
                       ran.empty() ? "" : fmt::format(" (and so did {})", ran),
                       !out_of_time_
                           ? ""
                           : fmt::format("; not tried, with less than {:g} s of the limit left: {}",
                                         kLeastStage, stagesInWords(ran_, later_.size(), ", ")));
  }

  // Later stages [from, to) in words, joined by `glue`.
  std::string stagesInWords(size_t from, size_t to, const char* glue) const {
    std::string out;
    for (size_t i = from; i < to; ++i) {
      const size_t groups = later_[i].max_groups;
      out += fmt::format("{}{}", i == from ? "" : glue,
                         !groups ? std::string("the optimised build")
                                 : fmt::format("the grid with {} work-group{} a dimension", groups,
                                               groups == 1 ? "" : "s"));
    }
    return out;
  }

  // Why the child gave no result: a signal, or the tool's own failure.
  clh::Finding failure(const clh::scan::ScanResult& r) const {
    clh::Finding f;
    f.device = r.device;
    f.kernel = options_.kernel;
    if (child_.signal) {
      f.kind = dev_.simulator ? clh::FindingKind::tool_error : clh::FindingKind::crash;
      f.summary = fmt::format("the process running the kernel died from {}{}",
                              clh::signalName(child_.signal),
                              dev_.simulator ? " (the simulator's failure, not the kernel's)" : "");
    } else {
      f.kind = clh::FindingKind::tool_error;
      f.summary = !error_.empty() ? error_ : "the scan's process ended without a result";
    }
    const std::string& text = stderr_text_;
    f.raw = text.size() > 4000 ? text.substr(text.size() - 4000) : text;
    return f;
  }

  const clh::ToolConfig& config_;
  const ScanArgs& a_;
  const clh::scan::ScanOptions& options_;
  const clh::DeviceInfo& dev_;
  const fs::path out_;
  ScanJob job_;
  const clh::scan::ScanBudget& budget_;
  double share_ = 0;  // this stage's share of the limit, seconds (of a simulator thread there)
  clh::CheckFallbackOutcome fallback_;
  // The outcome kept (attempt): the child's end, its result or usage error, what it said.
  clh::ChildOutcome child_;
  std::optional<clh::scan::ScanResult> result_;
  std::optional<clh::scan::ScanResult> partial_;  // the last result so far it sent
  std::string usage_error_, error_, stderr_text_;
  std::vector<clh::Finding> in_log_;  // what the simulator reported before the child was stopped
  std::vector<LaterStage> later_;     // the smaller grids and builds this scan allows
  size_t ran_ = 0;                    // how many of them ran
  bool out_of_time_ = false;          // the rest were left for want of time
};

// The options as given: 0, or the exit code of a usage error (said on stderr).
int readOptions(const ScanArgs& a, clh::scan::ScanOptions& options, uint64_t& seed) {
  if (!fs::is_regular_file(a.file)) {
    std::cerr << "clharness scan: no kernel file " << a.file << "\n";
    return clh::kExitUsage;
  }
  try {
    seed = scanSeed(a.seed);
    options = toOptions(a, seed);  // usage errors before any device is touched
  } catch (const clh::scan::ScanUsageError& e) {
    std::cerr << "clharness scan: " << e.what() << "\n";
    return clh::kExitUsage;
  }
  return clh::kExitOk;
}

// --json FILE: whole or not at all, with the OS's reason; false when it could not be written. An
// interrupted scan's is marked incomplete.
bool writeScanJson(const std::string& path, const std::vector<clh::scan::ScanResult>& results,
                   int interrupt) {
  if (path.empty()) return true;
  nlohmann::json j{{"schema", "clharness-scan/1"}, {"results", results}};
  if (interrupt) {
    j["incomplete"] = true;
    j["interrupted_by"] = clh::signalName(interrupt);
  }
  try {
    clh::writeFileAtomically(path, j.dump(2) + "\n");
  } catch (const std::exception& e) {
    std::cerr << "clharness scan: " << e.what() << "\n";
    return false;
  }
  return true;
}

}  // namespace

int runScanCommand(const clh::ToolConfig& config, const ScanArgs& a) {
  clh::scan::ScanOptions options;
  uint64_t seed = 1;
  if (const int usage = readOptions(a, options, seed)) return usage;
  auto devices = clh::findDevices(config, a.device_regex);
  if (devices.empty()) {
    std::cerr << "clharness scan: no device matches '" << a.device_regex
              << "'; `clharness devices` lists what was found\n";
    return clh::kExitNoDevice;
  }
  // SIGINT, SIGTERM: the child's group ends, and what it had found is reported.
  clh::installInterruptHandlers();
  const clh::scan::ScanBudget budget(a.timeout_s);
  fs::path scratch = fs::temp_directory_path() / fmt::format("clharness-scan-{}", getpid());
  fs::create_directories(scratch);
  std::vector<clh::scan::ScanResult> results;
  int code = clh::kExitOk;
  for (size_t d = 0; d < devices.size() && !clh::interruptRequested(); ++d) {
    DeviceScan scan(config, a, options, seed, devices[d], scratch, budget);
    scan.run();
    if (!scan.usageError().empty() && !scan.interrupted()) {
      std::cerr << "clharness scan: " << scan.usageError() << "\n";
      code = clh::kExitUsage;
      continue;
    }
    clh::scan::ScanResult r = scan.result();
    std::cout << clh::scan::renderScan(r);
    if (!r.findings.empty() && code == clh::kExitOk) code = clh::kExitCheckFailed;
    results.push_back(std::move(r));
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);
  const int interrupt = clh::interruptRequested();
  if (interrupt) {
    std::string left;  // the devices the scan did not reach
    for (size_t d = results.size(); d < devices.size(); ++d)
      left += (left.empty() ? "" : ", ") + devices[d].displayName();
    std::cout << fmt::format(
        "clharness scan: interrupted by {}: the report above holds what was found before it{}\n",
        clh::signalName(interrupt), left.empty() ? "" : "; not scanned: " + left);
  }
  if (!writeScanJson(a.json_path, results, interrupt)) return clh::kExitUsage;
  return interrupt ? clh::interruptExitCode() : code;
}

// In one process, for --no-isolate: a kernel that crashes ends the command.
int runInProcess(const clh::ToolConfig& config, ScanArgs a) {
  clh::scan::ScanResult r;
  try {
    const std::string base =
        (fs::temp_directory_path() / fmt::format("clharness-scan-{}.json", getpid())).string();
    r = scanHere(config, ScanJob{a, scanSeed(a.seed)}, base);
  } catch (const std::exception& e) {
    std::cerr << "clharness scan: " << e.what() << "\n";
    return clh::kExitUsage;
  }
  std::cout << clh::scan::renderScan(r);
  return r.findings.empty() ? clh::kExitOk : clh::kExitCheckFailed;
}

}  // namespace clh::scan
