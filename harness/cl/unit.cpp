// The property over sizes, its shrinking, and the verdict.
#include "cl/unit.hpp"

#include <fmt/format.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <regex>

#include "core/case.hpp"
#include "core/fit.hpp"
#include "core/shell.hpp"
#include "core/sizes.hpp"

namespace clh {

namespace {

bool hasKind(const CaseOutcome& c, FindingKind k) {
  for (const auto& f : c.findings)
    if (f.kind == k) return true;
  return false;
}

void accumulate(Perf& perf, const CaseOutcome& c) {
  ++perf.cases;
  perf.kernel_ns += c.kernel_ns;
  if (c.flops) perf.flops += *c.flops;
  if (c.bytes) perf.bytes += *c.bytes;
}

/// Keeps every stride-th case's timing; past kMaxPerfSamples it keeps every other one and doubles
/// the stride, so the samples stay spread over the whole run (rapidcheck's sizes grow as it goes).
class PerfSampler {
 public:
  void add(std::vector<PerfSample>& samples, const PerfSample& s) {
    if (seen_++ % stride_ != 0) return;
    samples.push_back(s);
    if (samples.size() <= kMaxPerfSamples) return;
    size_t kept = 0;
    for (size_t i = 0; i < samples.size(); i += 2) samples[kept++] = samples[i];
    samples.resize(kept);
    stride_ *= 2;
  }

 private:
  size_t seen_ = 0, stride_ = 1;
};

/// Elements in the buffers of the case at `sizes` (the plots' problem size); 0 when unknown.
double caseElements(const Spec& spec, ExprEnv& env, const Sizes& sizes) {
  try {
    double n = 0;
    for (size_t c : resolveCase(spec, env, sizes).counts) n += static_cast<double>(c);
    return n;
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

std::string replayCommand(const std::string& tool, const std::string& specFile,
                          const std::string& device, uint64_t seed, const Sizes& sizes) {
  return fmt::format("{} check {} --device {} --seed {} --sizes {}", tool, shellQuote(specFile),
                     shellQuote(exactDeviceRegex(device)), seed, shellQuote(formatSizes(sizes)));
}

uint64_t propertySeed(uint64_t runSeed, const std::string& specName) {
  return hash64(specName, runSeed);
}

Status classify(const CaseOutcome& failing, const std::vector<FindingKind>& expected) {
  if (failing.findings.empty()) return expected.empty() ? Status::pass : Status::unexpected_pass;
  if (hasKind(failing, FindingKind::tool_error)) return Status::tool_error;
  for (auto k : expected)
    if (hasKind(failing, k)) return Status::expected_failure;
  return Status::fail;
}

std::vector<FindingKind> expectedFindings(const Spec& spec, const DeviceInfo& device) {
  if (!spec.expect) return {};
  if (!spec.expect->devices.empty() &&
      !std::regex_search(device.displayName(), std::regex(spec.expect->devices, std::regex::icase)))
    return {};
  return spec.expect->any_of;
}

bool expectationCertain(const Spec& spec, const DeviceInfo& device) {
  if (!spec.expect || spec.expect->certain == "everywhere") return true;
  if (spec.expect->certain == "simulator") return device.simulator;
  return std::regex_search(device.displayName(),
                           std::regex(spec.expect->certain, std::regex::icase));
}

UnitResult unitFor(const Spec& spec, const DeviceInfo& device, uint64_t seed, std::string family) {
  UnitResult u;
  u.family = std::move(family);
  u.spec = spec.name;
  u.spec_file = spec.file;
  u.device = device.displayName();
  u.device_kind = toString(device.kind);
  u.seed = seed;
  return u;
}

PropertyEnd checkQuietly(const std::function<void()>& property, const std::string& id,
                         uint64_t seed, int cases, bool shrink) {
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = cases;
  params.maxSize = 100;
  params.maxDiscardRatio = 50;
  params.disableShrinking = !shrink;
  rc::detail::TestListenerAdapter quiet;
  rc::detail::TestMetadata meta;
  meta.id = id;
  // The five-argument form: the shorter ones read rapidcheck's global configuration (RC_PARAMS).
  const auto result =
      rc::detail::checkProperty(rc::detail::toProperty(property), meta, params, quiet, {});
  PropertyEnd end;
  rc::detail::GaveUpResult gave_up;
  if (result.match(gave_up)) {
    end.gave_up = true;
    end.successes = gave_up.numSuccess;
    end.why = gave_up.description;
  }
  rc::detail::Error err;
  if (result.match(err)) {
    end.error = true;
    end.why = err.description;
  }
  return end;
}

UnitResult runUnit(DeviceSession& session, const Spec& spec, const UnitOptions& options) {
  auto t0 = std::chrono::steady_clock::now();
  const DeviceInfo& dev = session.device();
  UnitResult u = unitFor(spec, dev, options.seed);
  u.expected = expectedFindings(spec, dev);

  ExprEnv env(paramNames(spec));
  const int resetsBefore = session.resets();
  session.takeSimulatorNotes();  // an earlier unit's
  std::optional<CaseOutcome> lastFailure;
  bool toolError = false;
  // A new context could not run even a probe kernel: nothing more can be learnt in this process,
  // so the search stops at the case that got it there.
  bool spoilt = false;
  // Cases whose buffers cannot exist here (core/fit.hpp): skipped, with the first reason.
  int tooLarge = 0;
  std::string tooLargeWhy;
  PerfSampler sampler;

  auto runOne = [&](const Sizes& sizes) {
    if (options.on_case_start) options.on_case_start(sizes);
    const auto caseStart = std::chrono::steady_clock::now();
    CaseOutcome c;
    for (size_t m = 0; m < options.modes.size() && !spoilt; ++m) {
      CaseOutcome one;
      try {
        one = session.runCase(spec, sizes, options.seed, options.modes[m]);
      } catch (const CaseTooLarge& e) {
        if (tooLarge++ == 0) tooLargeWhy = e.what();
        return std::optional<CaseOutcome>();
      }
      // After a failed command the next case (or mode) gets a new context, so that what it finds
      // is its own and not the follow-on error of a context the driver gave up on.
      if (session.needsReset()) {
        try {
          session.reset();
        } catch (const cl::Error& e) {  // the device is gone: said on the case that left it so
          Finding f;
          f.kind = FindingKind::launch_error;
          f.summary = fmt::format(
              "after this case failed, a new context could not run anything either: {} ({})",
              e.what(), clErrorName(e.err()));
          f.device = dev.displayName();
          one.findings.push_back(std::move(f));
          spoilt = true;
        }
      }
      if (m == 0) {
        c = std::move(one);
        continue;
      }
      for (auto& f : one.findings) {
        f.summary = fmt::format(
            "[{} buffers, {} read] {}", toString(options.modes[m].buffers),
            options.modes[m].read ? toString(*options.modes[m].read) : "default", f.summary);
        c.findings.push_back(std::move(f));
      }
      for (auto& o : one.observations) c.observations.push_back(std::move(o));
    }
    ++u.cases_run;
    accumulate(u.perf, c);
    if (c.kernel_ns > 0) {
      const double wall =
          std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - caseStart)
              .count();
      sampler.add(u.perf_samples,
                  {caseElements(spec, env, sizes), c.kernel_ns, wall, c.flops, c.bytes});
    }
    for (const auto& o : c.observations)
      if (std::find(u.observations.begin(), u.observations.end(), o) == u.observations.end())
        u.observations.push_back(o);
    return std::optional<CaseOutcome>(std::move(c));
  };

  if (options.sizes) {
    Sizes sizes = *options.sizes;
    completeDerived(spec, env, sizes);
    std::string why;
    if (!inDomain(spec, env, sizes, dev.simulator, &why))
      u.message = "note: the replayed sizes are outside the spec's domain (" + why + "). ";
    if (std::optional<CaseOutcome> c = runOne(sizes); c && !c->ok()) lastFailure = *c;
  } else {
    int cases = options.cases > 0 ? options.cases : (dev.simulator ? spec.sim_cases : spec.cases);
    rc::Gen<Sizes> gen = sizesGen(spec, dev.simulator);
    // Shrinking often proposes sizes already run; a case is deterministic (its data come from
    // the seed and the sizes), so its outcome is reused instead of running the kernel again.
    std::map<Sizes, std::optional<CaseOutcome>> seen;
    int outside = 0, drawnAgain = 0;  // discarded draws: outside the domain, or run before
    auto property = [&]() {
      if (toolError) RC_DISCARD("a tool error ended the search");
      if (spoilt) RC_DISCARD("the driver cannot run anything more in this process");
      Sizes sizes = *gen;
      if (!inDomain(spec, env, sizes, dev.simulator, nullptr)) {
        ++outside;
        RC_DISCARD("outside the spec's domain");
      }
      auto known = seen.find(sizes);
      // A passing size drawn again counts once: discarded, so that the search draws another.
      // While shrinking, a discard is as good as a pass: neither makes the candidate a failure.
      if (options.distinct && known != seen.end() && known->second && known->second->ok()) {
        ++drawnAgain;
        RC_DISCARD("drawn before");
      }
      const std::optional<CaseOutcome>& ran =
          known != seen.end() ? known->second : seen.emplace(sizes, runOne(sizes)).first->second;
      if (!ran) RC_DISCARD("the case's buffers cannot exist on this device or host");
      const CaseOutcome& c = *ran;
      if (!c.ok()) {
        if (hasKind(c, FindingKind::tool_error)) toolError = true;
        lastFailure = c;  // every failing call during shrinking is smaller than the one before
        RC_FAIL(c.findings.front().summary);
      }
    };
    const PropertyEnd end = checkQuietly(property, spec.name, propertySeed(options.seed, spec.name),
                                         cases, options.shrink);
    if (!lastFailure && end.gave_up && !tooLarge && drawnAgain > outside)
      u.message = fmt::format(
          "{} distinct cases, not {}: {} more draws gave only sizes already run (the domain "
          "holds few). ",
          seen.size(), cases, drawnAgain);
    else if (!lastFailure && end.gave_up && !tooLarge)
      u.message = fmt::format(
          "gave up after {} cases: the spec's constraints reject most generated sizes "
          "({})",
          end.successes, end.why);
    if (end.error) u.message = "property error: " + end.why;
  }

  if (tooLarge) {
    u.message += fmt::format("{} case{} skipped: {}{}. ", tooLarge, tooLarge == 1 ? "" : "s",
                             tooLargeWhy, tooLarge > 1 ? " (the first; others alike)" : "");
  }
  if (int n = session.resets() - resetsBefore)
    u.observations.push_back(fmt::format(
        "the session's context and queue were recreated {} time{} after an OpenCL error from a "
        "command (launch_error)",
        n, n == 1 ? "" : "s"));
  // How the simulator ran (its build, checks left off, work-group shapes for a NULL local size):
  // said in every report, so that what it did not look at is never silently clean.
  for (auto& note : session.takeSimulatorNotes())
    if (std::find(u.observations.begin(), u.observations.end(), note) == u.observations.end())
      u.observations.push_back(std::move(note));
  if (spoilt)
    u.message +=
        "not shrunk further: after the case below failed, the driver could not run even "
        "a probe kernel in a new context of this process. ";
  if (lastFailure) {
    u.failing = lastFailure;
    u.status = classify(*lastFailure, u.expected);
    u.replay = replayCommand(options.tool, spec.file, u.device, options.seed, lastFailure->sizes);
  } else if (tooLarge && u.cases_run == 0) {
    u.status = Status::skipped;  // nothing could run: no verdict on the kernel
  } else {
    u.status = u.expected.empty() ? Status::pass : Status::unexpected_pass;
  }
  if (u.status == Status::unexpected_pass && !expectationCertain(spec, dev)) {
    std::string kinds;
    for (auto k : u.expected) kinds += (kinds.empty() ? "" : ", ") + std::string(toString(k));
    u.status = Status::not_reproduced;
    u.message += fmt::format(
        "not reproduced on this device: {} cases showed no {} ({}); the spec says the bug is "
        "certain only on {}, and undefined behaviour may show nothing here",
        u.cases_run, kinds, spec.expect->reason,
        spec.expect->certain == "simulator" ? "the simulator" : "'" + spec.expect->certain + "'");
  } else if (u.status == Status::unexpected_pass) {
    std::string kinds;
    for (auto k : u.expected) kinds += (kinds.empty() ? "" : ", ") + std::string(toString(k));
    u.message +=
        fmt::format("expected {} ({}) but {} cases showed none: was the published bug fixed?",
                    kinds, spec.expect->reason, u.cases_run);
  } else if (u.status == Status::expected_failure) {
    u.message += "as expected: " + spec.expect->reason;
  } else if (u.status == Status::tool_error) {
    u.message += "the tool failed on this kernel (not the kernel's fault)";
  }
  u.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return u;
}

}  // namespace clh
