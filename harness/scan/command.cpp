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

#include "core/files.hpp"
#include "core/shell.hpp"
#include "proc/child.hpp"
#include "scan/grid.hpp"
#include "scan/scan.hpp"
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

// What the simulator had reported when the time limit stopped a scan: the findings of every
// launch in its plugin's log (the tries that finished and the one that was running), with the
// user's --suppress applied. The tool's own records (a line cut short by the kill, API errors of a
// build attempt) are left out: they are no finding of the kernel's.
std::vector<clh::Finding> findingsBeforeTheLimit(const std::string& log_path,
                                                 const clh::scan::ScanOptions& options,
                                                 const std::string& device) {
  std::ifstream in(log_path);
  if (!in) return {};
  clh::OclgrindParseOptions parse;
  parse.source_file = options.source_path;
  parse.device = device;
  const clh::OclgrindLog log = clh::parseOclgrindLogDetailed(in, parse);
  std::vector<clh::Finding> out;
  std::set<std::string> seen;  // one problem found by several tries is listed once
  static const std::regex count(R"( \([0-9]+ reports\)$)");
  for (const auto& launch : log.launches)
    for (const auto& f : launch.findings) {
      if (f.kind == clh::FindingKind::tool_error ||
          std::find(options.suppress.begin(), options.suppress.end(), f.kind) !=
              options.suppress.end())
        continue;
      if (seen.insert(std::string(clh::toString(f.kind)) + "\n" +
                      std::regex_replace(f.summary, count, ""))
              .second)
        out.push_back(f);
    }
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
// run a few seconds, shows on stderr how far it is and an estimate of what is left.
class ProgressShower {
 public:
  explicit ProgressShower(std::string log) : log_(std::move(log)), thread_([this] { run(); }) {}
  ~ProgressShower() { stop(); }
  void stop() {
    done_ = true;
    if (thread_.joinable()) thread_.join();
  }

 private:
  void run() {
    const auto start = std::chrono::steady_clock::now();
    clh::LineTail tail(log_);
    bool shown = false;
    long launches = 0;
    auto launchStart = start;
    while (!done_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      tail.pollJson([&](const nlohmann::json& j) {
        const std::string event = j.value("event", "");
        if (event == "kernel_begin") {
          ++launches;
          launchStart = std::chrono::steady_clock::now();
        }
        if (event != "progress") return;
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - launchStart).count();
        const long doneGroups = j.value("groups_done", 0L), total = j.value("groups_total", 0L);
        if (elapsed < 3 || total <= 0 || doneGroups <= 0) return;
        const double left =
            elapsed * static_cast<double>(total - doneGroups) / static_cast<double>(doneGroups);
        std::cerr << fmt::format(
            "\rscan: launch {}: {} of {} work-groups ({:.0f}%), about {:.0f} s left   ", launches,
            doneGroups, total, 100.0 * static_cast<double>(doneGroups) / static_cast<double>(total),
            left);
        shown = true;
      });
    }
    if (shown) std::cerr << "\n";
  }

  std::string log_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace

SimulatorLimits simulatorLimits(double timeout_s) {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  if (const char* n = std::getenv("OCLGRIND_NUM_THREADS"); n && std::atoi(n) > 0)
    threads = static_cast<unsigned>(std::atoi(n));
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
clh::scan::ScanResult scanHere(const clh::ToolConfig& config, const ScanJob& job,
                               const std::string& log_base) {
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
    r = clh::scan::runScan(session, o);
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
    channel.result(scanHere(config, job, channel.path()));
  } catch (const clh::scan::ScanUsageError& e) {
    channel.send("usage_error", {{"message", e.what()}});
  }
  return clh::kExitOk;
}

int runScanCommand(const clh::ToolConfig& config, const ScanArgs& a) {
  if (!fs::is_regular_file(a.file)) {
    std::cerr << "clharness scan: no kernel file " << a.file << "\n";
    return clh::kExitUsage;
  }
  clh::scan::ScanOptions options;
  uint64_t seed = 1;
  try {
    seed = scanSeed(a.seed);
    options = toOptions(a, seed);  // usage errors before any device is touched
  } catch (const clh::scan::ScanUsageError& e) {
    std::cerr << "clharness scan: " << e.what() << "\n";
    return clh::kExitUsage;
  }
  auto devices = clh::findDevices(config, a.device_regex);
  if (devices.empty()) {
    std::cerr << "clharness scan: no device matches '" << a.device_regex
              << "'; `clharness devices` lists what was found\n";
    return clh::kExitNoDevice;
  }
  fs::path scratch = fs::temp_directory_path() / fmt::format("clharness-scan-{}", getpid());
  fs::create_directories(scratch);
  std::vector<clh::scan::ScanResult> results;
  int code = clh::kExitOk;
  for (const auto& dev : devices) {
    const fs::path out = scratch / (dev.slug() + ".json");  // the events; the log beside them
    ScanJob job{a, seed};
    job.args.device_regex = dev.identity();
    // On the simulator a crash may be one of its checks': run again without it (check_fallback).
    clh::ChildOutcome child;
    std::optional<clh::scan::ScanResult> result;
    std::string usageError, error, stderrText;
    std::vector<clh::Finding> beforeLimit;  // what the simulator reported before a time limit
    // On the simulator the limit is CPU time (SimulatorLimits); on a device the clock's.
    double limit = a.timeout_s;
    auto attempt = [&](const std::vector<clh::OclgrindCheck>& skip) {
      std::error_code gone;
      fs::remove(out.string() + ".oclgrind.jsonl", gone);
      ProgressShower progress(out.string() + ".oclgrind.jsonl");
      clh::ChildOptions co;
      co.timeout_s = limit;
      if (dev.simulator) {
        const SimulatorLimits l = simulatorLimits(limit);
        co.cpu_limit_s = std::round(l.cpu_s);
        job.cpu_budget_s = co.cpu_limit_s;
        co.timeout_s = l.wall_s;
      }
      clh::JobRun run =
          clh::runJob(clh::withSkippedChecks({config.exe}, skip), "__scan", job, out.string(), co);
      if (run.child.cpu_limited) run.child.limit_s = limit;  // the user's --timeout
      progress.stop();
      const bool crashed = run.child.signal != 0 && !run.child.timed_out;
      if (skip.empty() || !crashed) {
        child = run.child;
        result = run.result<clh::scan::ScanResult>();
        usageError.clear();
        for (const auto& e : run.events)
          if (e.value("event", "") == "usage_error") usageError = e.value("message", "");
        error = run.error;
        stderrText = run.stderr_text;
        // Read once: a launch's log can be hundreds of megabytes.
        beforeLimit = run.child.timed_out && dev.simulator
                          ? findingsBeforeTheLimit(out.string() + ".oclgrind.jsonl", options,
                                                   dev.displayName())
                          : std::vector<clh::Finding>{};
      }
      return dev.simulator && crashed;
    };
    // Every attempt crashed: not a check's crash, and the first attempt's outcome (kept) stands.
    clh::CheckFallbackOutcome fallback = clh::runWithCheckFallback(attempt);
    // Findings the simulator made before a time limit stand, so a kernel that has some is not
    // run again.
    auto timedOutEmpty = [&] { return child.timed_out && beforeLimit.empty(); };
    // On the simulator a grid that ran past the limit runs again smaller: two work-groups in
    // each dimension, then one (the child's notes say so).
    std::string smaller;  // the smaller grids and builds run, in words
    if (dev.simulator && timedOutEmpty()) {
      std::vector<size_t> groups;
      try {
        const clh::scan::PlannedGrid plan = clh::scan::planGrid(options, dev);
        groups = groupCounts(plan.global, plan.local);
      } catch (const clh::scan::ScanUsageError&) {
        // the child said why it cannot run; nothing to shrink
      }
      const size_t most = groups.empty() ? 0 : *std::max_element(groups.begin(), groups.end());
      for (size_t cap : {size_t{2}, size_t{1}}) {
        if (most <= cap || !timedOutEmpty()) continue;
        job.max_groups = cap;
        fallback = clh::runWithCheckFallback(attempt);
        smaller += fmt::format("{}the grid with {} work-group{} a dimension",
                               smaller.empty() ? "" : ", then ", cap, cap == 1 ? "" : "s");
      }
    }
    // Still past the limit on the smallest grid: once more, the simulator checking the optimised
    // build, whose loops without effect are gone (the child's note says what that leaves out).
    const bool levelNotChosen =  // the user's options neither optimise nor keep it as written
        clh::isUnoptimisedBuild(clh::preferredSimulatorOptions(options.build_options)) &&
        !clh::isUnoptimisedBuild(options.build_options);
    if (dev.simulator && timedOutEmpty() && levelNotChosen) {
      job.optimised = true;
      fallback = clh::runWithCheckFallback(attempt);
      smaller += smaller.empty() ? "the optimised build" : ", then the optimised build";
    }
    // A timeout is confirmed before it stands: once more with the limit doubled (a busy machine
    // is not a kernel that never ends), unless a smaller grid or the optimised build ran past it.
    std::string confirmed;
    if (!smaller.empty() && child.timed_out) confirmed = fmt::format(" (and so did {})", smaller);
    if (smaller.empty() && timedOutEmpty()) {
      limit = 2 * a.timeout_s;
      fallback = clh::runWithCheckFallback(attempt);
      confirmed =
          child.timed_out
              ? fmt::format(" (and past {:.0f} s when run again with the limit doubled)", limit)
              : fmt::format(
                    "a first try ran past the {:.0f} s limit (--timeout); run again with "
                    "the limit doubled, it finished (a busy machine, not the kernel)",
                    a.timeout_s);
    }
    clh::scan::ScanResult r;
    r.device = dev.displayName();
    r.kernel = options.kernel;
    r.source = options.source_path;
    r.global = options.global;  // as given; a finished child's result says what ran
    r.local = options.local;
    r.build_options = options.build_options;
    if (!usageError.empty()) {
      std::cerr << "clharness scan: " << usageError << "\n";
      code = clh::kExitUsage;
      continue;
    }
    if (result && !child.timed_out && !child.signal) {
      r = *result;
      if (!fallback.note.empty()) r.notes.push_back(fallback.note);
      if (!confirmed.empty()) r.notes.push_back(confirmed);
    } else {
      clh::Finding f;
      f.device = r.device;
      f.kernel = options.kernel;
      if (child.timed_out) {
        f.kind = clh::FindingKind::timeout;
        f.summary =
            fmt::format("the kernel ran past the {:.0f} s limit (--timeout{}){}", a.timeout_s,
                        dev.simulator ? ", CPU time on each simulator thread" : "", confirmed);
        if (dev.simulator) {
          r.findings = beforeLimit;
          if (!r.findings.empty())
            f.summary += fmt::format(
                "; the {} finding{} above {} what the simulator reported before it stopped the "
                "scan",
                r.findings.size(), r.findings.size() == 1 ? "" : "s",
                r.findings.size() == 1 ? "is" : "are");
        }
      } else if (child.signal) {
        f.kind = dev.simulator ? clh::FindingKind::tool_error : clh::FindingKind::crash;
        f.summary = fmt::format(
            "the process running the kernel died from {}{}", clh::signalName(child.signal),
            dev.simulator ? " (the simulator's failure, not the kernel's)" : "");
      } else {
        f.kind = clh::FindingKind::tool_error;
        f.summary = !error.empty() ? error : "the scan's process ended without a result";
      }
      const std::string& text = stderrText;
      f.raw = text.size() > 4000 ? text.substr(text.size() - 4000) : text;
      r.findings.push_back(f);
    }
    std::cout << clh::scan::renderScan(r);
    if (!r.findings.empty() && code == clh::kExitOk) code = clh::kExitCheckFailed;
    results.push_back(std::move(r));
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);
  if (!a.json_path.empty()) {
    try {  // whole or not at all, with the OS's reason
      clh::writeFileAtomically(
          a.json_path,
          nlohmann::json{{"schema", "clharness-scan/1"}, {"results", results}}.dump(2) + "\n");
    } catch (const std::exception& e) {
      std::cerr << "clharness scan: " << e.what() << "\n";
      return clh::kExitUsage;
    }
  }
  return code;
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
