// `clharness check`: every spec on every selected device, each unit in its own process, then the
// terminal summary, JSON and JUnit reports and the exit code.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "app/app.hpp"
#include "app/isolate.hpp"
#include "app/launch_run.hpp"
#include "app/run_journal.hpp"
#include "cl/unit.hpp"
#include "core/reporters/reporters.hpp"
#include "core/shell.hpp"
#include "core/sizes.hpp"
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
    f.summary =
        fmt::format("the simulator crashed ({}): not the kernel's fault", signalName(child.signal));
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

UnitResult runIsolated(const AppConfig& config, const Spec& spec, const DeviceInfo& dev,
                       const CheckOptions& o, const fs::path& scratch) {
  fs::path out = scratch / fmt::format("unit-{}-{}.jsonl", dev.slug(), spec.name);
  fs::remove(out);
  std::vector<std::string> argv = {config.exe,       "__unit",
                                   "--spec",         spec.file,
                                   "--platform",     std::to_string(dev.platform_index),
                                   "--device-index", std::to_string(dev.device_index),
                                   "--device-name",  dev.displayName(),
                                   "--seed",         std::to_string(o.seed),
                                   "--cases",        std::to_string(o.cases),
                                   "--out",          out.string()};
  if (o.sizes) argv.insert(argv.end(), {"--sizes", *o.sizes});
  argv.insert(argv.end(), {"--buffer-mode", o.buffer_mode, "--read-mode", o.read_mode});
  if (!o.shrink) argv.push_back("--no-shrink");
  ChildOutcome child = runChild(argv, o.timeout_s);

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
  if (!error.empty()) child.error = error;
  UnitResult u = lostUnit(config, spec, dev, o, child, lastSizes, started);
  if (!lastWords.empty() && u.failing && !u.failing->findings.empty())
    u.failing->findings.front().raw = "the process's last words on stderr:\n" + lastWords + "\n";
  return u;
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

  // The launch family's known driver deviations, per device.
  const bool launches = o.launch_shapes > 0 && !o.sizes;
  const std::string baselineDir =
      o.launch_baselines.empty() ? (fs::path(config.repo_root) / "baselines" / "launch").string()
                                 : o.launch_baselines;
  std::map<std::string, launch::KnownDeviations> known;
  if (launches) {
    try {
      for (const auto& d : devices) known[d.slug()] = launch::loadKnownDeviations(baselineDir, d);
    } catch (const std::exception& e) {
      std::cerr << "clharness: --launch-baselines: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  LaunchRunOptions lo;
  lo.shapes = o.launch_shapes;
  lo.seed_text = std::to_string(o.seed);
  lo.timeout_s = o.timeout_s;

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
  for (const auto& d : devices) report.devices.push_back(d.displayName());
  fs::path scratch = fs::temp_directory_path() / fmt::format("clharness-{}", getpid());
  fs::create_directories(scratch);
  size_t total = specs.size() * devices.size() * (launches ? 2 : 1), done = 0;
  std::vector<std::unique_ptr<OclgrindSession>> sims(devices.size());
  std::vector<std::unique_ptr<DeviceSession>> sessions(devices.size());
  for (const auto& spec : specs) {
    for (size_t d = 0; d < devices.size() && !interruptRequested(); ++d) {
      const auto& dev = devices[d];
      UnitResult u;
      auto earlier = journal.take(unitKey("cases", spec.file, dev.displayName()));
      if (earlier) {
        u = std::move(*earlier);  // finished by the run this one resumes
      } else if (o.isolate) {
        u = runIsolated(config, spec, dev, o, scratch);
      } else {
        if (!sessions[d]) {
          sims[d] =
              simulatorSession(dev, (scratch / ("oclgrind-" + dev.slug() + ".jsonl")).string());
          sessions[d] = std::make_unique<DeviceSession>(dev, sims[d].get());
        }
        UnitOptions uo;
        uo.seed = o.seed;
        uo.cases = o.cases;
        uo.shrink = o.shrink;
        uo.tool = config.tool_name;
        uo.modes = runModes(o.buffer_mode, o.read_mode);
        if (o.sizes) uo.sizes = parseSizes(*o.sizes);
        u = runUnit(*sessions[d], spec, uo);
      }
      if (interruptRequested() && o.isolate && !earlier) break;  // its child was ended
      if (!earlier) journal.append(u);
      ++done;
      std::cerr << fmt::format("[{}/{}] {} on {}: {} ({} cases, {})\n", done, total, spec.name,
                               dev.displayName(), toString(u.status), u.cases_run,
                               earlier ? "from the journal" : fmt::format("{:.2f}s", u.seconds));
      // A kernel that never ends would hang under the launch shapes too.
      const bool hung =
          u.failing && std::any_of(u.failing->findings.begin(), u.failing->findings.end(),
                                   [](const Finding& f) { return f.kind == FindingKind::timeout; });
      report.units.push_back(std::move(u));
      if (!launches) continue;
      if (hung) {
        UnitResult l = unitFor(spec, dev, o.seed, "launch");
        l.status = Status::skipped;
        l.message = "no launch shape ran: the spec's cases ran past the time limit";
        ++done;
        journal.append(l);
        report.units.push_back(std::move(l));
        continue;
      }
      if (auto done_before = journal.take(unitKey("launch", spec.file, dev.displayName()))) {
        ++done;
        std::cerr << fmt::format("[{}/{}] {} on {}: {} (from the journal)\n", done, total,
                                 done_before->title(), dev.displayName(),
                                 toString(done_before->status));
        report.units.push_back(std::move(*done_before));
        continue;
      }
      // Always in child processes: a shape may kill the driver's process (PoCL on a 0 in the
      // local size), and the next child goes on after it.
      const FamilyRun run = runLaunchIsolated(config, lo, spec, dev, scratch);
      if (interruptRequested()) break;  // its children were ended: not a result
      UnitResult l = launchUnit(config, run, known.at(dev.slug()), o.seed);
      journal.append(l);
      ++done;
      std::cerr << fmt::format("[{}/{}] {} on {}: {} ({} shapes, {:.2f}s)\n", done, total,
                               l.title(), dev.displayName(), toString(l.status), l.cases_run,
                               l.seconds);
      report.units.push_back(std::move(l));
    }
  }
  sessions.clear();  // contexts go before the simulator sessions they report to
  sims.clear();
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
  for (const auto& u : report.units)
    if (!isSuccess(u.status)) return kExitCheckFailed;
  return kExitOk;
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
    const DeviceInfo found = findDeviceAgain(config, o.device_name, o.platform, o.device);
    const DeviceInfo* dev = &found;
    std::unique_ptr<OclgrindSession> sim = simulatorSession(*dev, o.out + ".oclgrind.jsonl");
    DeviceSession session(*dev, sim.get());
    UnitOptions uo;
    uo.seed = o.seed;
    uo.cases = o.cases;
    uo.shrink = o.shrink;
    uo.tool = config.tool_name;
    uo.modes = runModes(o.buffer_mode, o.read_mode);
    if (o.sizes) uo.sizes = parseSizes(*o.sizes);
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
      std::cout << "add_test(" << q(name) << " " << q(exe) << " check " << q(spec.file)
                << " --device " << q(regex) << ")\n";
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
