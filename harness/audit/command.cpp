// `clharness audit` and its child (audit/command.hpp).
#include "audit/command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "audit/audit.hpp"
#include "cl/driver_alone.hpp"
#include "cl/unit.hpp"
#include "core/files.hpp"
#include "core/sizes.hpp"
#include "proc/child.hpp"
#include "run/sanitize_unit.hpp"
#include "sanitize/cases.hpp"
#include "sim/oclgrind_session.hpp"

namespace fs = std::filesystem;

namespace clh::audit {

namespace {

// Runs one unit in a child process; a crash or a hang becomes the unit's finding.
clh::UnitResult runIsolated(const clh::ToolConfig& config, const clh::Spec& spec,
                            const clh::DeviceInfo& dev, const clh::UnitOptions& uo, bool paired,
                            double timeout_s, const fs::path& scratch) {
  static int serial = 0;
  const fs::path out = scratch / fmt::format("audit-unit-{}.jsonl", ++serial);
  const AuditUnitJob job{spec.file, spec.source_path, dev.identity(), uo.seed,
                         uo.cases,  uo.sizes,         uo.shrink,      paired};
  clh::ChildOptions co;
  co.timeout_s = timeout_s;
  co.env = clh::deviceChildEnvironment(dev);  // its driver alone (cl/driver_alone.hpp)
  const clh::JobRun run = clh::runJob({config.exe}, "__audit_unit", job, out.string(), co);
  const clh::ChildOutcome& child = run.child;

  std::optional<clh::Sizes> last;
  int started = 0;
  for (const auto& j : run.events)
    if (j.value("event", "") == "case_start") {
      last = j["sizes"].get<clh::Sizes>();
      ++started;
    }
  const std::optional<clh::UnitResult> result = run.result<clh::UnitResult>();
  const std::string& error = run.error;
  const std::string& text = run.stderr_text;
  const std::string errTail = text.size() > 2000 ? text.substr(text.size() - 2000) : text;
  std::error_code ec;
  fs::remove(out.string() + ".oclgrind.jsonl", ec);
  if (result && !child.timed_out && !child.signal) return *result;

  clh::UnitResult u;
  u.spec = spec.name;
  u.spec_file = spec.file;
  u.device = dev.displayName();
  u.device_kind = clh::toString(dev.kind);
  u.seed = uo.seed;
  u.cases_run = started;
  clh::Finding f;
  f.device = u.device;
  if (child.timed_out) {
    f.kind = clh::FindingKind::timeout;
    f.summary =
        fmt::format("the unit ran past its {:.0f} s limit (a kernel that never ends?)", timeout_s);
  } else if (child.signal) {
    // The simulator checks every access: its process dying is its own failure, not the kernel's.
    f.kind = dev.simulator ? clh::FindingKind::tool_error : clh::FindingKind::crash;
    f.summary =
        fmt::format("the process running the kernel died from {}", clh::signalName(child.signal));
  } else {
    f.kind = clh::FindingKind::tool_error;
    f.summary =
        !error.empty() ? error
        : !child.error.empty()
            ? child.error
            : fmt::format("the unit's process exited with code {} and no result", child.exit_code);
  }
  f.raw = errTail;
  clh::CaseOutcome c;
  if (last) c.sizes = *last;
  c.findings.push_back(f);
  u.failing = c;
  u.status = f.kind == clh::FindingKind::tool_error ? clh::Status::tool_error : clh::Status::fail;
  u.message =
      last ? "during the case " + clh::formatSizes(*last) + " (not shrunk)" : "before any case ran";
  return u;
}

}  // namespace

void to_json(nlohmann::json& j, const AuditUnitJob& job) {
  j = {{"spec_file", job.spec_file}, {"source", job.source}, {"device_id", job.device_id},
       {"seed", job.seed},           {"cases", job.cases},   {"shrink", job.shrink},
       {"paired", job.paired}};
  clh::putOptional(j, "sizes", job.sizes);
}

void from_json(const nlohmann::json& j, AuditUnitJob& job) {
  job.spec_file = j.at("spec_file").get<std::string>();
  job.source = j.value("source", job.source);
  job.device_id = j.at("device_id").get<std::string>();
  job.seed = j.value("seed", job.seed);
  job.cases = j.value("cases", job.cases);
  job.shrink = j.value("shrink", job.shrink);
  job.paired = j.value("paired", job.paired);
  clh::getOptional(j, "sizes", job.sizes);
}

int runAuditUnit(const clh::ToolConfig& config, const AuditUnitJob& a, clh::JobChannel& channel) {
  // The simulator prints every report on stderr; the parent reads them from the plugin's log.
  const clh::Spec unmodified = clh::loadSpec(a.spec_file, config.repo_root);
  clh::Spec spec = a.source.empty() ? unmodified : clh::audit::mutantSpec(unmodified, a.source);
  const clh::DeviceInfo found = clh::findDeviceAgain(config, a.device_id);
  const clh::DeviceInfo* dev = &found;
  auto sim = clh::simulatorSession(*dev, channel.path() + ".oclgrind.jsonl");
  {
    clh::DeviceSession session(*dev, sim.get());
    clh::UnitOptions uo;
    uo.seed = a.seed;
    uo.cases = a.cases;
    uo.shrink = a.shrink;
    uo.tool = config.tool_name;
    uo.sizes = a.sizes;
    uo.on_case_start = [&channel](const clh::Sizes& s) {
      channel.send("case_start", {{"sizes", s}});
    };
    channel.result(a.paired ? clh::audit::runWhereUnmodifiedPasses(session, unmodified, spec, uo)
                            : clh::runUnit(session, spec, uo));
  }
  if (sim) fs::remove(sim->logPath());
  return clh::kExitOk;
}

namespace {

// --no-isolate: one session per device in this process (a crashing mutant ends the run).
class InProcessUnits {
 public:
  InProcessUnits(const clh::ToolConfig& config, fs::path scratch)
      : config_(config), scratch_(std::move(scratch)) {}
  InProcessUnits(const InProcessUnits&) = delete;
  InProcessUnits& operator=(const InProcessUnits&) = delete;
  ~InProcessUnits() {
    sessions_.clear();  // contexts go before the simulator sessions they report to
    sims_.clear();
  }

  clh::UnitResult run(const clh::Spec& spec, const clh::DeviceInfo& dev, const clh::UnitOptions& uo,
                      bool paired) {
    clh::DeviceSession& session = sessionOn(dev);
    if (!paired) return clh::runUnit(session, spec, uo);
    auto found = unmodified_.find(spec.file);
    if (found == unmodified_.end())
      found = unmodified_.emplace(spec.file, clh::loadSpec(spec.file, config_.repo_root)).first;
    return clh::audit::runWhereUnmodifiedPasses(session, found->second, spec, uo);
  }

  // The sanitized unit in this process: its plan (the rewriting helper runs here), then its cases.
  clh::UnitResult sanitized(const clh::Spec& spec, const clh::DeviceInfo& dev,
                            const clh::UnitOptions& uo) {
    try {
      const clh::sanitize::SanitizePlan plan =
          clh::sanitize::planSanitizedUnit(spec, dev, uo.seed, uo.sizes, spec.source_path);
      return clh::sanitize::runSanitizedUnit(sessionOn(dev), spec, plan, uo.seed, {});
    } catch (const std::exception& e) {
      clh::UnitResult u = clh::unitFor(spec, dev, uo.seed, "sanitize");
      clh::Finding f;
      f.kind = clh::FindingKind::tool_error;
      f.summary =
          std::string("the sanitizer could not plan this unit (clharness's failure): ") + e.what();
      u.failing = clh::CaseOutcome{};
      u.failing->findings.push_back(f);
      u.status = clh::Status::tool_error;
      return u;
    }
  }

 private:
  const clh::ToolConfig& config_;
  const fs::path scratch_;
  std::map<std::string, std::unique_ptr<clh::OclgrindSession>> sims_;
  std::map<std::string, std::unique_ptr<clh::DeviceSession>> sessions_;
  std::map<std::string, clh::Spec> unmodified_;  // by spec file, for paired units

  clh::DeviceSession& sessionOn(const clh::DeviceInfo& dev) {
    auto& session = sessions_[dev.displayName()];
    if (!session) {
      auto& sim = sims_[dev.displayName()];
      sim = clh::simulatorSession(dev, (scratch_ / ("oclgrind-" + dev.slug() + ".jsonl")).string());
      session = std::make_unique<clh::DeviceSession>(dev, sim.get());
    }
    return *session;
  }
};

// --seed and --sizes into the options; false (with the message printed) when either is bad.
bool parseAuditOptions(const AuditArgs& args, clh::audit::AuditOptions& options) {
  if (!clh::parseSeed(args.seed, options.seed)) {
    std::cerr << "clharness audit: --seed: '" << args.seed << "' is not an unsigned integer\n";
    return false;
  }
  if (!args.sizes.empty()) {
    try {
      options.sizes = clh::parseSizes(args.sizes);
    } catch (const std::invalid_argument& e) {
      std::cerr << "clharness audit: " << e.what() << "\n";
      return false;
    }
  }
  return true;
}

// The specs under the given paths (the repository's specs/ by default); false when there are
// none or one is bad (the message printed).
bool loadAuditSpecs(const clh::ToolConfig& config, const AuditArgs& args,
                    std::vector<clh::Spec>& specs) {
  try {
    std::vector<std::string> paths = args.paths;
    if (paths.empty()) paths.push_back((fs::path(config.repo_root) / "specs").string());
    for (const auto& f : clh::findSpecFiles(paths))
      specs.push_back(clh::loadSpec(f, config.repo_root));
  } catch (const clh::SpecError& e) {
    std::cerr << "clharness audit: bad spec: " << e.what() << "\n";
    return false;
  }
  if (specs.empty()) {
    std::cerr << "clharness audit: no spec files (*.yaml) under the given paths\n";
    return false;
  }
  return true;
}

// Audits each spec, printing each audit as it ends; a spec that could not be audited is named on
// stderr and makes `code` a usage error.
std::vector<clh::audit::SpecAudit> auditAll(const std::vector<clh::Spec>& specs,
                                            const std::vector<clh::DeviceInfo>& devices,
                                            const clh::audit::AuditOptions& options,
                                            const clh::audit::UnitRunner& runner, int& code) {
  std::vector<clh::audit::SpecAudit> audits;
  std::vector<std::string> without;
  for (const auto& spec : specs) {
    try {
      auto a = clh::audit::auditSpec(spec, devices, options, runner);
      if (a.calls.empty()) {
        without.push_back(spec.name);
        continue;
      }
      std::cout << clh::audit::renderAudit(a) << std::flush;
      audits.push_back(std::move(a));
    } catch (const std::exception& e) {
      std::cerr << "clharness audit: " << spec.name << ": " << e.what() << "\n";
      code = clh::kExitUsage;
    }
  }
  if (!without.empty()) {
    std::string list;
    for (const auto& n : without) list += (list.empty() ? "" : ", ") + n;
    std::cout << "no synchronisation call to audit in: " << list << "\n";
  }
  return audits;
}

void printVerdictTable(const std::vector<clh::audit::SpecAudit>& audits) {
  if (audits.empty()) return;
  std::cout << fmt::format("\n{:<40} {:<5} {:<36} {}\n", "SPEC", "LINE", "CALL", "VERDICT");
  for (const auto& a : audits)
    for (const auto& c : a.calls)
      std::cout << fmt::format("{:<40} {:<5} {:<36} {}\n", a.spec, c.call.line, c.call.text,
                               clh::audit::toString(c.verdict));
}

// --json and --markdown; a file that cannot be written makes `code` a usage error.
void writeAuditFiles(const AuditArgs& args, const std::vector<clh::audit::SpecAudit>& audits,
                     int& code) {
  auto write = [&](const std::string& path, const std::string& text) {
    try {  // whole or not at all, with the OS's reason
      clh::writeFileAtomically(path, text);
    } catch (const std::exception& e) {
      std::cerr << "clharness audit: " << e.what() << "\n";
      code = clh::kExitUsage;
    }
  };
  if (!args.json_path.empty()) write(args.json_path, clh::audit::toJson(audits).dump(2) + "\n");
  if (!args.markdown_path.empty()) write(args.markdown_path, clh::audit::renderMarkdown(audits));
}

}  // namespace

int runAudit(const clh::ToolConfig& config, const AuditArgs& args) {
  clh::audit::AuditOptions options;
  std::vector<clh::Spec> specs;
  if (!parseAuditOptions(args, options) || !loadAuditSpecs(config, args, specs))
    return clh::kExitUsage;
  auto devices = clh::findDevices(config, args.device_regex);
  if (devices.empty()) {
    std::cerr << "clharness audit: no usable device"
              << (args.device_regex.empty() ? "" : " matches --device '" + args.device_regex + "'")
              << "; `clharness devices` lists what was found\n";
    return clh::kExitNoDevice;
  }

  fs::path scratch = fs::temp_directory_path() / fmt::format("clharness-audit-{}", getpid());
  fs::create_directories(scratch);
  options.mutants_dir =
      args.mutants_dir.empty() ? (scratch / "mutants").string() : args.mutants_dir;
  options.only = args.calls;
  options.cases = args.cases;
  options.sim_cases = args.sim_cases;
  options.shrink = !args.no_shrink;
  options.tool = config.tool_name;
  options.progress = [](const std::string& what) { std::cerr << "running " << what << "\n"; };
  int code = clh::kExitOk;
  {
    InProcessUnits in_process(config, scratch);
    auto runner = [&](const clh::Spec& spec, const clh::DeviceInfo& dev, const clh::UnitOptions& uo,
                      bool paired) {
      if (args.no_isolate) return in_process.run(spec, dev, uo, paired);
      return runIsolated(config, spec, dev, uo, paired, args.timeout_s, scratch);
    };
    if (!args.no_sanitize)
      options.sanitized = [&](const clh::Spec& spec, const clh::DeviceInfo& dev,
                              const clh::UnitOptions& uo) {
        if (args.no_isolate) return in_process.sanitized(spec, dev, uo);
        clh::CheckOptions co;
        co.seed = uo.seed;
        if (uo.sizes) co.sizes = clh::formatSizes(*uo.sizes);
        co.timeout_s = args.timeout_s;
        return clh::runSanitizedUnitIsolated(config, spec, dev, co, scratch);
      };
    const auto audits = auditAll(specs, devices, options, runner, code);
    printVerdictTable(audits);
    writeAuditFiles(args, audits, code);
  }  // the in-process sessions end here, before their scratch folder goes
  std::error_code ec;
  fs::remove_all(scratch, ec);  // with the mutants, unless --mutants put them elsewhere
  return code;
}

}  // namespace clh::audit
