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
#include "core/program_budget.hpp"
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

namespace {

// One unit's search: the cases rapidcheck draws (or the one case replayed), each in every mode,
// shrunk to the smallest failure, then the verdict and the notes that explain it.
class UnitRun {
 public:
  UnitRun(DeviceSession& session, const Spec& spec, const UnitOptions& options)
      : t0_(std::chrono::steady_clock::now()),
        session_(session),
        spec_(spec),
        options_(options),
        dev_(session.device()),
        env_(paramNames(spec)),
        resets_before_(session.resets()) {
    u_ = unitFor(spec, dev_, options.seed);
    u_.expected = expectedFindings(spec, dev_);
    session_.takeSimulatorNotes();  // an earlier unit's
  }

  UnitResult run() {
    if (options_.sizes)
      replay(*options_.sizes);
    else
      search();
    noteHowItRan();
    decide();
    explain();
    u_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    return std::move(u_);
  }

 private:
  // The one case of --sizes.
  void replay(Sizes sizes) {
    completeDerived(spec_, env_, sizes);
    std::string why;
    if (!inDomain(spec_, env_, sizes, dev_.simulator, &why))
      u_.message = "note: the replayed sizes are outside the spec's domain (" + why + "). ";
    if (std::optional<CaseOutcome> c = runOne(sizes); c && !c->ok()) last_failure_ = *c;
  }

  // The property over generated sizes, shrunk to the smallest failing case.
  void search() {
    const int cases =
        options_.cases > 0 ? options_.cases : (dev_.simulator ? spec_.sim_cases : spec_.cases);
    rc::Gen<Sizes> gen = sizesGen(spec_, dev_.simulator);
    const uint64_t seed = propertySeed(options_.seed, spec_.name);
    ProgramBudget programs(spec_, dev_.simulator, seed, options_.build_programs);
    // Shrinking often proposes sizes already run; a case is deterministic (its data come from
    // the seed and the sizes), so its outcome is reused instead of running the kernel again.
    std::map<Sizes, std::optional<CaseOutcome>> seen;
    int outside = 0, drawnAgain = 0;  // discarded draws: outside the domain, or run before
    auto property = [&]() {
      if (tool_error_) RC_DISCARD("a tool error ended the search");
      if (spoilt_) RC_DISCARD("the driver cannot run anything more in this process");
      Sizes sizes = *gen;
      if (!inDomain(spec_, env_, sizes, dev_.simulator, nullptr)) {
        ++outside;
        RC_DISCARD("outside the spec's domain");
      }
      if (!programs.admit(sizes)) RC_DISCARD("a program past the unit's budget");
      auto known = seen.find(sizes);
      // A passing size drawn again counts once: discarded, so that the search draws another.
      // While shrinking, a discard is as good as a pass: neither makes the candidate a failure.
      if (options_.distinct && known != seen.end() && known->second && known->second->ok()) {
        ++drawnAgain;
        RC_DISCARD("drawn before");
      }
      const std::optional<CaseOutcome>& ran =
          known != seen.end() ? known->second : seen.emplace(sizes, runOne(sizes)).first->second;
      if (!ran) RC_DISCARD("the case's buffers cannot exist on this device or host");
      const CaseOutcome& c = *ran;
      if (!c.ok()) {
        if (hasKind(c, FindingKind::tool_error)) tool_error_ = true;
        last_failure_ = c;  // every failing call during shrinking is smaller than the one before
        RC_FAIL(c.findings.front().summary);
      }
    };
    const PropertyEnd end = checkQuietly(property, spec_.name, seed, cases, options_.shrink);
    if (std::string note = programs.note(); !note.empty())
      u_.observations.push_back(std::move(note));
    if (!last_failure_ && end.gave_up && !too_large_)
      explainGaveUp(end, cases, seen.size(), {outside, drawnAgain, programs.refused()});
    if (end.error) u_.message = "property error: " + end.why;
  }

  // Why the search ended before `cases` passing cases, from the draws it discarded.
  struct Discards {
    int outside = 0, drawn_again = 0, other_program = 0;
  };
  void explainGaveUp(const PropertyEnd& end, int cases, size_t distinct, const Discards& d) {
    if (d.drawn_again > d.outside && d.drawn_again >= d.other_program)
      u_.message = fmt::format(
          "{} distinct cases, not {}: {} more draws gave only sizes already run (the domain "
          "holds few). ",
          distinct, cases, d.drawn_again);
    else if (d.other_program > d.outside)
      u_.message = fmt::format(
          "gave up after {} cases: most draws needed a program past the unit's budget of {} "
          "({}). ",
          end.successes, options_.build_programs, end.why);
    else
      u_.message = fmt::format(
          "gave up after {} cases: the spec's constraints reject most generated sizes "
          "({})",
          end.successes, end.why);
  }

  // One case at `sizes` in every mode, its findings merged; none when its buffers cannot exist.
  std::optional<CaseOutcome> runOne(const Sizes& sizes) {
    if (options_.on_case_start) options_.on_case_start(sizes);
    const auto caseStart = std::chrono::steady_clock::now();
    CaseOutcome c;
    for (size_t m = 0; m < options_.modes.size() && !spoilt_; ++m) {
      CaseOutcome one;
      try {
        one = session_.runCase(spec_, sizes, options_.seed, options_.modes[m]);
      } catch (const CaseTooLarge& e) {
        if (too_large_++ == 0) too_large_why_ = e.what();
        return std::nullopt;
      }
      resetIfNeeded(one);
      if (m == 0)
        c = std::move(one);
      else
        mergeMode(c, std::move(one), options_.modes[m]);
    }
    record(c, sizes, caseStart);
    return c;
  }

  // After a failed command the next case (or mode) gets a new context, so that what it finds is
  // its own and not the follow-on error of a context the driver gave up on.
  void resetIfNeeded(CaseOutcome& one) {
    if (!session_.needsReset()) return;
    try {
      session_.reset();
    } catch (const cl::Error& e) {  // the device is gone: said on the case that left it so
      Finding f;
      f.kind = FindingKind::launch_error;
      f.summary = fmt::format(
          "after this case failed, a new context could not run anything either: {} ({})", e.what(),
          clErrorName(e.err()));
      f.device = dev_.displayName();
      one.findings.push_back(std::move(f));
      spoilt_ = true;
    }
  }

  // A later mode's findings, each named by its mode, and its observations join the first mode's.
  static void mergeMode(CaseOutcome& c, CaseOutcome one, const RunOptions& mode) {
    for (auto& f : one.findings) {
      f.summary = fmt::format("[{} buffers, {} read] {}", toString(mode.buffers),
                              mode.read ? toString(*mode.read) : "default", f.summary);
      c.findings.push_back(std::move(f));
    }
    for (auto& o : one.observations) c.observations.push_back(std::move(o));
  }

  // The case counted, its timing sampled, its observations kept once each.
  void record(const CaseOutcome& c, const Sizes& sizes,
              std::chrono::steady_clock::time_point caseStart) {
    ++u_.cases_run;
    accumulate(u_.perf, c);
    if (c.kernel_ns > 0) {
      const double wall =
          std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - caseStart)
              .count();
      sampler_.add(u_.perf_samples,
                   {caseElements(spec_, env_, sizes), c.kernel_ns, wall, c.flops, c.bytes});
    }
    for (const auto& o : c.observations)
      if (std::find(u_.observations.begin(), u_.observations.end(), o) == u_.observations.end())
        u_.observations.push_back(o);
  }

  // What the unit's report says about how it ran: cases too large, contexts recreated, the
  // simulator's notes, a search cut short.
  void noteHowItRan() {
    if (too_large_) {
      u_.message += fmt::format("{} case{} skipped: {}{}. ", too_large_, too_large_ == 1 ? "" : "s",
                                too_large_why_, too_large_ > 1 ? " (the first; others alike)" : "");
    }
    if (int n = session_.resets() - resets_before_)
      u_.observations.push_back(fmt::format(
          "the session's context and queue were recreated {} time{} after an OpenCL error from a "
          "command (launch_error)",
          n, n == 1 ? "" : "s"));
    // How the simulator ran (its build, checks left off, work-group shapes for a NULL local
    // size): said in every report, so that what it did not look at is never silently clean.
    for (auto& note : session_.takeSimulatorNotes())
      if (std::find(u_.observations.begin(), u_.observations.end(), note) == u_.observations.end())
        u_.observations.push_back(std::move(note));
    if (spoilt_)
      u_.message +=
          "not shrunk further: after the case below failed, the driver could not run even "
          "a probe kernel in a new context of this process. ";
  }

  // The status, from the smallest failure (with its replay command) or from none.
  void decide() {
    if (last_failure_) {
      u_.failing = last_failure_;
      u_.status = classify(*last_failure_, u_.expected);
      u_.replay =
          replayCommand(options_.tool, spec_.file, u_.device, options_.seed, last_failure_->sizes);
    } else if (too_large_ && u_.cases_run == 0) {
      u_.status = Status::skipped;  // nothing could run: no verdict on the kernel
    } else {
      u_.status = u_.expected.empty() ? Status::pass : Status::unexpected_pass;
    }
    if (u_.status == Status::unexpected_pass && !expectationCertain(spec_, dev_))
      u_.status = Status::not_reproduced;
  }

  // The message that goes with the status.
  void explain() {
    std::string kinds;
    for (auto k : u_.expected) kinds += (kinds.empty() ? "" : ", ") + std::string(toString(k));
    if (u_.status == Status::not_reproduced) {
      u_.message += fmt::format(
          "not reproduced on this device: {} cases showed no {} ({}); the spec says the bug is "
          "certain only on {}, and undefined behaviour may show nothing here",
          u_.cases_run, kinds, spec_.expect->reason,
          spec_.expect->certain == "simulator" ? "the simulator"
                                               : "'" + spec_.expect->certain + "'");
    } else if (u_.status == Status::unexpected_pass) {
      u_.message +=
          fmt::format("expected {} ({}) but {} cases showed none: was the published bug fixed?",
                      kinds, spec_.expect->reason, u_.cases_run);
    } else if (u_.status == Status::expected_failure) {
      u_.message += "as expected: " + spec_.expect->reason;
    } else if (u_.status == Status::tool_error) {
      u_.message += "the tool failed on this kernel (not the kernel's fault)";
    }
  }

  const std::chrono::steady_clock::time_point t0_;
  DeviceSession& session_;
  const Spec& spec_;
  const UnitOptions& options_;
  const DeviceInfo& dev_;
  UnitResult u_;
  ExprEnv env_;
  const int resets_before_;
  std::optional<CaseOutcome> last_failure_;
  bool tool_error_ = false;
  // A new context could not run even a probe kernel: nothing more can be learnt in this process,
  // so the search stops at the case that got it there.
  bool spoilt_ = false;
  // Cases whose buffers cannot exist here (core/fit.hpp): skipped, with the first reason.
  int too_large_ = 0;
  std::string too_large_why_;
  PerfSampler sampler_;
};

}  // namespace

UnitResult runUnit(DeviceSession& session, const Spec& spec, const UnitOptions& options) {
  return UnitRun(session, spec, options).run();
}

}  // namespace clh
