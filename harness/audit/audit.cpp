// The barrier audit's driver and rules: mutants on every device (plain, and sanitized on each real
// device), the evidence each plain unit gives and the verdict per call (the sanitizer's evidence:
// sanitized.cpp; the terminal and Markdown forms: render.cpp; JSON: audit_json.cpp).
#include "audit/audit.hpp"

#include <fmt/format.h>
#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "core/enum_words.hpp"
#include "core/shell.hpp"
#include "core/sizes.hpp"
#include "run/sanitize_unit.hpp"

namespace fs = std::filesystem;

namespace clh::audit {

namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read kernel file " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// wrong_result and unwritten are one thing here: the outputs are not what the reference says.
int category(FindingKind k) {
  return k == FindingKind::unwritten ? static_cast<int>(FindingKind::wrong_result)
                                     : static_cast<int>(k);
}

bool hasLines(FindingKind k) {
  return k == FindingKind::race || k == FindingKind::out_of_bounds ||
         k == FindingKind::uninitialized || k == FindingKind::divergence;
}

std::set<int> lineSet(const Finding& f) {
  std::set<int> s;
  for (const auto& l : f.lines) s.insert(l.line);
  return s;
}

// Whether the unmodified kernel showed `f` already (the mutant's file differs: lines compare by
// number, which the mutants keep).
bool shownBy(const Finding& f, const std::vector<Finding>& baseline) {
  for (const auto& b : baseline) {
    if (category(b.kind) != category(f.kind)) continue;
    if (hasLines(f.kind) && !f.lines.empty() && !b.lines.empty() && lineSet(f) != lineSet(b))
      continue;
    return true;
  }
  return false;
}

std::string kindsOf(const std::vector<Finding>& fs) {
  std::vector<std::string> kinds;
  for (const auto& f : fs) {
    std::string k(toString(f.kind));
    if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
  }
  std::string out;
  for (const auto& k : kinds) out += (out.empty() ? "" : ", ") + k;
  return out;
}

// A finding's summary without file names ("between line 41 and line 34"): mutants live in a
// scratch folder, and every line number is the kernel file's own.
std::string shortSummary(const Finding& f) {
  std::string s = f.summary;
  for (const auto& l : f.lines) {
    if (l.file.empty()) continue;
    for (size_t p; (p = s.find(l.file + ":")) != std::string::npos;)
      s.replace(p, l.file.size() + 1, "line ");
  }
  return s;
}

// A device's short name for tables: the part after "Platform: ".
std::string shortDevice(const std::string& display) {
  if (display.rfind("Portable Computing Language", 0) == 0) return "PoCL";
  size_t colon = display.find(": ");
  return colon == std::string::npos ? display : display.substr(0, colon);
}

// The compiler's first error of a build_error, as "line 64: what": Clang's form
// "FILE:64:15: error: what" (Oclgrind) or PoCL's "error: FILE:64:15: what"; the finding's
// summary when the build log has neither.
std::string buildError(const Finding& f) {
  static const std::regex clang(R"(:(\d+):\d+: error: ([^\n]*))");
  static const std::regex pocl(R"(error: [^\n]*?:(\d+):\d+: ([^\n]*))");
  std::smatch m;
  if (std::regex_search(f.raw, m, clang) || std::regex_search(f.raw, m, pocl))
    return "line " + m[1].str() + ": " + m[2].str();
  return f.summary;
}

// " at SIZES" from a sanitized unit's first observation ("sanitized on D at 2 size(s) of the
// spec's full ranges (N=128; N=17): ..."); empty when it has none.
std::string sanitizedSizes(const UnitResult& u) {
  static const std::regex sizes(
      R"(^sanitized on .* size\(s\) of the spec's full ranges \(([^)]*)\))");
  std::smatch m;
  for (const auto& o : u.observations)
    if (std::regex_search(o, m, sizes)) return " at " + m[1].str();
  return "";
}

}  // namespace

namespace {
constexpr EnumWord<Verdict> kBarrierVerdictWords[] = {
    {Verdict::necessary, "necessary"},
    {Verdict::redundant, "redundant"},
    {Verdict::undetermined, "undetermined"},
};
}  // namespace

std::string_view toString(Verdict v) {
  return wordOf(kBarrierVerdictWords, v, "undetermined");
}

Spec mutantSpec(const Spec& spec, const std::string& mutant_file) {
  Spec m = spec;
  m.source = mutant_file;
  m.source_path = mutant_file;
  return m;
}

std::string mutantFileName(const Spec& spec, const SyncCall& call) {
  return fmt::format("{}.no-{}-{}.line{}.cl", fs::path(spec.source_path).stem().string(),
                     call.function, call.index, call.line);
}

DeviceEvidence weigh(const UnitResult& baseline, const UnitResult& mutant, bool simulator) {
  DeviceEvidence e;
  e.device = mutant.device;
  e.simulator = simulator;
  e.mutant = mutant;
  e.baseline = baseline;
  std::vector<Finding> before =
      baseline.failing ? baseline.failing->findings : std::vector<Finding>{};
  for (const auto& f : before) {
    if (f.kind == FindingKind::build_error) {
      e.note = "the unmodified kernel does not build here (" + buildError(f) + ")";
      return e;
    }
    if (f.kind == FindingKind::tool_error) {
      e.note = "the unmodified kernel does not run here (tool_error: " + f.summary + ")";
      return e;
    }
  }
  if (!mutant.failing) {
    if (baseline.failing)
      e.note =
          fmt::format("the unmodified kernel fails here ({}) and this mutant passed its {} cases",
                      kindsOf(before), mutant.cases_run);
    return e;
  }
  std::vector<Finding> after = mutant.failing->findings;
  for (const auto& f : after) {
    if (f.kind == FindingKind::tool_error) {
      e.note = "the tool failed on the mutant: " + f.summary;
      e.evidence.clear();
      return e;
    }
    if (f.kind == FindingKind::build_error) {
      e.note = "the mutant does not build (" + buildError(f) + ")";
      e.evidence.clear();
      return e;
    }
    if (!shownBy(f, before)) e.evidence.push_back(f);
  }
  if (e.evidence.empty())
    e.note = fmt::format("shows only what the unmodified kernel shows here ({})", kindsOf(after));
  return e;
}

namespace {

// A unit whose findings say something about the kernel: it failed, and not because it could not
// be built, the tool failed, or its process died (a paired run would run the same again).
bool comparable(const UnitResult& u) {
  if (!u.failing) return false;
  for (const auto& f : u.failing->findings)
    if (f.kind == FindingKind::build_error || f.kind == FindingKind::tool_error ||
        f.kind == FindingKind::crash || f.kind == FindingKind::timeout)
      return false;
  return true;
}

// The evidence of a paired unit: every finding counts, since the unmodified kernel passed there,
// except a process that died or hung: the unmodified kernel runs in it too.
DeviceEvidence weighPaired(const UnitResult& baseline, const UnitResult& mutant, bool simulator) {
  DeviceEvidence e = weigh(UnitResult{}, mutant, simulator);
  e.baseline = baseline;
  e.paired = true;
  std::erase_if(e.evidence, [&](const Finding& f) {
    bool lost = f.kind == FindingKind::crash || f.kind == FindingKind::timeout;
    if (lost && e.note.empty())
      e.note = "the process died or hung running the unmodified kernel and the mutant in turn (" +
               f.summary + ")";
    return lost;
  });
  if (!mutant.failing && mutant.cases_run == 0)
    e.note = "the unmodified kernel fails on every case tried here";
  return e;
}

}  // namespace

UnitResult runWhereUnmodifiedPasses(DeviceSession& session, const Spec& unmodified,
                                    const Spec& mutant, const UnitOptions& options) {
  auto t0 = std::chrono::steady_clock::now();
  const DeviceInfo& dev = session.device();
  UnitResult u;
  u.spec = mutant.name;
  u.spec_file = mutant.file;
  u.device = dev.displayName();
  u.device_kind = toString(dev.kind);
  u.seed = options.seed;
  const RunOptions mode = options.modes.empty() ? RunOptions{} : options.modes.front();
  ExprEnv env(paramNames(unmodified));
  std::optional<CaseOutcome> failure;
  int skipped = 0;
  // Returns the mutant's case, or nothing when the unmodified kernel shows something there.
  auto runOne = [&](const Sizes& sizes) -> std::optional<CaseOutcome> {
    if (options.on_case_start) options.on_case_start(sizes);
    if (!session.runCase(unmodified, sizes, options.seed, mode).ok()) {
      ++skipped;
      return std::nullopt;
    }
    CaseOutcome c = session.runCase(mutant, sizes, options.seed, mode);
    ++u.cases_run;
    return c;
  };
  if (options.sizes) {
    Sizes sizes = *options.sizes;
    completeDerived(unmodified, env, sizes);
    auto c = runOne(sizes);
    if (c && !c->ok()) failure = c;
  } else {
    int cases = options.cases > 0 ? options.cases
                                  : (dev.simulator ? unmodified.sim_cases : unmodified.cases);
    rc::Gen<Sizes> gen = sizesGen(unmodified, dev.simulator);
    bool toolError = false;
    auto property = [&]() {
      if (toolError) RC_DISCARD("a tool error ended the search");
      // A kernel that failed on as many cases as were asked for, and passed none, is wrong
      // everywhere in this domain: stop looking (each try costs a run of it).
      if (skipped >= cases && u.cases_run == 0)
        RC_DISCARD("the unmodified kernel fails everywhere");
      Sizes sizes = *gen;
      RC_PRE(inDomain(unmodified, env, sizes, dev.simulator, nullptr));
      auto c = runOne(sizes);
      if (!c) RC_DISCARD("the unmodified kernel fails here");
      if (!c->ok()) {
        for (const auto& f : c->findings)
          toolError = toolError || f.kind == FindingKind::tool_error;
        failure = c;  // each failing call while shrinking is smaller than the one before
        RC_FAIL(c->findings.front().summary);
      }
    };
    checkQuietly(property, mutant.name, propertySeed(options.seed, unmodified.name), cases,
                 options.shrink);
  }
  if (failure) {
    u.failing = failure;
    u.status = classify(*failure, {});
  }
  u.message = fmt::format("{} case{} skipped where the unmodified kernel fails", skipped,
                          skipped == 1 ? "" : "s");
  u.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return u;
}

const Finding* headline(const std::vector<Finding>& findings) {
  static const std::vector<FindingKind> order = {
      FindingKind::race,         FindingKind::divergence,    FindingKind::wrong_result,
      FindingKind::unwritten,    FindingKind::out_of_bounds, FindingKind::uninitialized,
      FindingKind::missing_wait, FindingKind::misaligned,    FindingKind::access_mode,
      FindingKind::crash,        FindingKind::timeout,       FindingKind::launch_error,
      FindingKind::api_error,    FindingKind::other};
  for (auto k : order)
    for (const auto& f : findings)
      if (f.kind == k) return &f;
  return findings.empty() ? nullptr : &findings.front();
}

std::string deviceLabel(const DeviceEvidence& e) {
  return shortDevice(e.device) + (e.sanitized ? " [sanitize]" : "");
}

void decide(CallAudit& call) {
  for (const auto& d : call.devices)
    if (!d.evidence.empty()) {
      call.verdict = Verdict::necessary;
      // A race names both lines; prefer it over a wrong result when both exist.
      const DeviceEvidence* best = &d;
      for (const auto& o : call.devices)
        if (!o.evidence.empty() && headline(o.evidence)->kind == FindingKind::race) {
          best = &o;
          break;
        }
      call.reason = deviceLabel(*best) + ": " + describe(*best);
      return;
    }
  // Every plain unit must be clean; a sanitized pair that could not run or look says nothing.
  bool allClean = !call.devices.empty(), vouched = false, simulator = false;
  std::string unseen;
  for (const auto& d : call.devices) {
    if (!d.sanitized) allClean = allClean && d.clean();
    vouched = vouched || d.vouches();
    simulator = simulator || d.simulator;
    if (d.sanitized && d.clean() && !d.unseen.empty() && unseen.empty())
      unseen = deviceLabel(d) + " passed but cannot vouch: " + d.unseen;
  }
  if (allClean && vouched) {
    call.verdict = Verdict::redundant;
    std::string runs;
    for (const auto& d : call.devices)
      if (d.clean())
        runs += fmt::format("{}{} {} cases", runs.empty() ? "" : ", ", deviceLabel(d),
                            d.mutant.cases_run);
    call.reason = "nothing found without it (" + runs + ")";
    return;
  }
  call.verdict = Verdict::undetermined;
  std::string why;
  for (const auto& d : call.devices)
    if (!d.note.empty()) why += (why.empty() ? "" : "; ") + deviceLabel(d) + ": " + d.note;
  if (allClean && !unseen.empty())
    why = "every device passed, but no simulator ran and the sanitizer did not look everywhere: " +
          unseen;
  else if (allClean && !simulator)
    why =
        "every device passed, but no simulator ran: a missing barrier can pass on every CPU device";
  call.reason = why.empty() ? "no device ran" : why;
}

std::string describe(const DeviceEvidence& e) {
  if (!e.evidence.empty()) {
    const Finding& h = *headline(e.evidence);
    std::string s = std::string(toString(h.kind));
    if (!h.address_space.empty()) s += " (" + h.address_space + ")";
    s += ": " + shortSummary(h);
    if (e.mutant.failing) s += " at " + formatSizes(e.mutant.failing->sizes);
    if (e.paired) s += " (where the unmodified kernel passes)";
    std::vector<Finding> rest;
    for (const auto& f : e.evidence)
      if (f.kind != h.kind) rest.push_back(f);
    if (!rest.empty()) s += "; also " + kindsOf(rest);
    return s;
  }
  if (!e.note.empty()) return e.note;
  if (e.sanitized)
    return fmt::format("pass ({} sanitized case{}{}){}", e.mutant.cases_run,
                       e.mutant.cases_run == 1 ? "" : "s", sanitizedSizes(e.mutant),
                       e.unseen.empty() ? "" : "; cannot vouch: " + e.unseen);
  if (e.paired)
    return fmt::format("pass ({} cases where the unmodified kernel passes)", e.mutant.cases_run);
  return fmt::format("pass ({} cases)", e.mutant.cases_run);
}

namespace {

// What one spec's audit runs with: the options, the runner, and the unmodified kernel's units on
// each device (plain, and sanitized on each real device when the audit sanitizes).
struct SpecRun {
  const Spec& spec;
  const std::vector<DeviceInfo>& devices;
  const AuditOptions& options;
  const UnitRunner& run;
  std::vector<UnitResult> baselines;
  std::vector<std::optional<UnitResult>> sanitized_baselines;

  void tell(const std::string& what) const {
    if (options.progress) options.progress(what);
  }
  UnitOptions unitOptions(const DeviceInfo& d) const {
    UnitOptions uo;
    uo.seed = options.seed;
    uo.cases = d.simulator ? options.sim_cases : options.cases;
    uo.sizes = options.sizes;
    uo.shrink = options.shrink;
    uo.tool = options.tool;
    return uo;
  }
  bool sanitizes(const DeviceInfo& d) const { return options.sanitized && !d.simulator; }

  void runBaselines() {
    for (const auto& d : devices) {
      tell(fmt::format("{} (unmodified) on {}", spec.name, d.displayName()));
      baselines.push_back(run(spec, d, unitOptions(d), false));
      sanitized_baselines.emplace_back();
      if (!sanitizes(d) || whyNotSanitized(d, baselines.back())) continue;
      tell(fmt::format("{} (unmodified) on {}, sanitized", spec.name, d.displayName()));
      sanitized_baselines.back() = options.sanitized(spec, d, unitOptions(d));
    }
  }

  std::string replay(const SyncCall& call, const DeviceInfo& d, const DeviceEvidence& e) const {
    if (!e.mutant.failing) return "";
    return fmt::format("{} audit {} --call {} --device {} --seed {} --sizes {}", options.tool,
                       shellQuote(spec.file), call.index,
                       shellQuote(exactDeviceRegex(d.displayName())), options.seed,
                       shellQuote(formatSizes(e.mutant.failing->sizes)));
  }

  // The mutant's plain units on device `i`, paired where the unmodified kernel already fails.
  DeviceEvidence plainEvidence(const Spec& mutant, const SyncCall& call, size_t i) const {
    const auto& d = devices[i];
    tell(fmt::format("{} {} on {}", spec.name, mutantLabel(call), d.displayName()));
    UnitResult m = run(mutant, d, unitOptions(d), false);
    DeviceEvidence e = weigh(baselines[i], m, d.simulator);
    if (e.evidence.empty() && comparable(baselines[i]) && (!m.failing || comparable(m)) &&
        !options.sizes) {
      // The kernel fails without any change: look where it does not.
      tell(fmt::format("{} {} on {}, where the unmodified kernel passes", spec.name,
                       mutantLabel(call), d.displayName()));
      e = weighPaired(baselines[i], run(mutant, d, unitOptions(d), true), d.simulator);
    }
    e.device = d.displayName();
    e.replay = replay(call, d, e);
    return e;
  }

  CallAudit audit(const Spec& mutant, const SyncCall& call) const {
    CallAudit ca;
    ca.call = call;
    for (size_t i = 0; i < devices.size(); ++i) {
      const auto& d = devices[i];
      ca.devices.push_back(plainEvidence(mutant, call, i));
      if (!sanitized_baselines[i]) continue;
      tell(fmt::format("{} {} on {}, sanitized", spec.name, mutantLabel(call), d.displayName()));
      DeviceEvidence e = weighSanitized(*sanitized_baselines[i],
                                        options.sanitized(mutant, d, unitOptions(d)), call);
      e.device = d.displayName();
      e.replay = replay(call, d, e);
      ca.devices.push_back(std::move(e));
    }
    decide(ca);
    return ca;
  }
};

}  // namespace

SpecAudit auditSpec(const Spec& spec, const std::vector<DeviceInfo>& devices,
                    const AuditOptions& options, const UnitRunner& run) {
  auto t0 = std::chrono::steady_clock::now();
  SpecAudit a;
  a.spec = spec.name;
  a.spec_file = spec.file;
  a.source = spec.source;
  for (const auto& l : spec.launches)
    if (a.kernels.find(l.kernel) == std::string::npos)
      a.kernels += (a.kernels.empty() ? "" : ", ") + l.kernel;
  std::string text = readText(spec.source_path);
  std::vector<SyncCall> calls = findSyncCalls(text);
  std::erase_if(calls, [&](const SyncCall& c) {
    return !options.only.empty() &&
           std::find(options.only.begin(), options.only.end(), c.index) == options.only.end();
  });
  if (calls.empty()) return a;

  SpecRun runs{spec, devices, options, run, {}, {}};
  runs.runBaselines();
  fs::path dir = fs::path(options.mutants_dir) / spec.name;
  fs::create_directories(dir);
  for (const auto& call : calls) {
    fs::path file = dir / mutantFileName(spec, call);
    {
      std::ofstream out(file, std::ios::binary);
      out << removeCall(text, call);
      if (!out) throw std::runtime_error("cannot write the mutant " + file.string());
    }
    a.calls.push_back(runs.audit(mutantSpec(spec, file.string()), call));
  }
  a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return a;
}

}  // namespace clh::audit
