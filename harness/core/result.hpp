// Results as values: one case, one unit (a spec on a device), a whole run. Reporters, the JSON
// report and the child-process protocol all read and write these.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/hostbuffer.hpp"

namespace clh {

/// The result of one case: its sizes, what was found, and the kernel time from profiling events.
struct CaseOutcome {
  Sizes sizes;
  std::vector<Finding> findings;
  double kernel_ns = 0;  ///< sum over launches of (end - start)
  double queued_to_end_ns = 0;
  std::optional<double> flops, bytes;
  /// What the implementation did where the specification leaves it free (never a failure).
  std::vector<std::string> observations;
  bool ok() const { return findings.empty(); }
};

/// How a unit ended.
enum class Status {
  pass,              ///< every case agreed with the reference, nothing found
  fail,              ///< a finding the spec does not expect
  expected_failure,  ///< the finding an as-published spec expects, shrunk
  unexpected_pass,   ///< an as-published spec whose expected finding did not appear
  tool_error,        ///< the simulator or driver failed; not the kernel's fault
  skipped,           ///< not run (e.g. the device lacks a feature)
  /// An expected finding that rests on undefined behaviour (a private array overrun) did not show
  /// on a device where the spec says it may not (`expect: {certain: ...}`): a note, not a failure.
  not_reproduced,
};
std::string_view toString(Status s);
/// The most per-case samples a unit keeps (UnitResult::perf_samples).
inline constexpr size_t kMaxPerfSamples = 48;
std::optional<Status> statusFromString(std::string_view s);
/// Whether a status counts as success for exit codes (pass, expected_failure, skipped, tool_error,
/// not_reproduced).
bool isSuccess(Status s);

/// Kernel-time totals over the cases that ran.
struct Perf {
  int cases = 0;
  double kernel_ns = 0;
  double flops = 0;  ///< 0 when the spec states none
  double bytes = 0;
  double gflops() const { return kernel_ns > 0 && flops > 0 ? flops / kernel_ns : 0; }
  double gbytes() const { return kernel_ns > 0 && bytes > 0 ? bytes / kernel_ns : 0; }
};

/// One case's timing, for the report's plots (docs/report.md, `perf.samples`).
struct PerfSample {
  double size = 0;       ///< elements in the case's buffers (the sum over its buffers)
  double kernel_ns = 0;  ///< the case's kernel time (profiling events)
  double wall_ns = 0;    ///< the harness's time for the case: build, fill, launch, read, compare
  std::optional<double> flops, bytes;  ///< the spec's expressions for this case, when given
};

/// One spec on one device.
struct UnitResult {
  /// What the unit checked: "cases" (the spec's random cases against its reference), "launch"
  /// (generated launch shapes against the specification's rules, see docs/semantics.md) or
  /// "sanitize" (the kernel instrumented by the sanitizer, docs/sanitizer.md).
  std::string family = "cases";
  std::string spec;       ///< spec name
  std::string spec_file;  ///< path as given
  std::string device;     ///< display name
  std::string device_kind;
  Status status = Status::pass;
  int cases_run = 0;
  uint64_t seed = 0;
  std::optional<CaseOutcome> failing;     ///< the smallest failing case, when one failed
  std::string replay;                     ///< the command that replays `failing`
  std::string message;                    ///< one paragraph: why this status
  std::vector<FindingKind> expected;      ///< what the spec expects, if anything
  std::vector<std::string> observations;  ///< distinct observations over the cases
  Perf perf;
  /// Some of the cases' timings, spread over the run (at most kMaxPerfSamples; the plots of the
  /// HTML report). Empty in reports written before they were recorded.
  std::vector<PerfSample> perf_samples;
  double seconds = 0;
  /// The clharness that ran the unit, where it differs from the report's own `tool_version` (a
  /// merge of reports of several versions); empty: the report's.
  std::string tool_version;

  /// "spec" for the cases, "spec [launch]" for another family: how reports name the unit.
  std::string title() const;
};

/// What a driver or the simulator did where the OpenCL specification forbids something or leaves
/// it open: a launch it must refuse, a host call's error code, a crash or a hang there. Reported
/// per device beside the kernels' verdicts, never part of one.
enum class DriverVerdict { conforms, deviates, crashed, hung, observed, skipped };
std::string_view toString(DriverVerdict v);
std::optional<DriverVerdict> driverVerdictFromString(std::string_view s);

/// How a driver finding compares with the device's baseline (regression testing).
enum class BaselineMark {
  none,        ///< no baseline was used
  known,       ///< the baseline records the same
  fresh,       ///< not in the baseline: a new, unrecorded finding ("new")
  regression,  ///< the baseline records another outcome, and a rerun gave this one again
  fix,         ///< the baseline records a deviation that conforms now
  missing,     ///< in the baseline, not seen in this run
  flaky,       ///< differs from the baseline, and a rerun gave another outcome
};
std::string_view toString(BaselineMark m);
std::optional<BaselineMark> baselineMarkFromString(std::string_view s);
/// Whether the mark fails a run in regression mode (`check --baseline`): new and regression.
bool failsRegression(BaselineMark m);

struct DriverFinding {
  /// Stable id: a driver check ("read.blocking", "launch.zero_local"), or a launch family's
  /// failure key ("shape.over_kernel_max local.over_kernel_max -> completion: CL_SUCCESS (0)").
  std::string check;
  std::string title;  ///< for people
  DriverVerdict verdict = DriverVerdict::deviates;
  std::string got;      ///< what the driver did
  std::string allowed;  ///< what the specification allows (or requires)
  std::string detail;   ///< where it was seen, how often; never compared with a baseline
  std::string replay;   ///< the command that shows it again
  BaselineMark mark = BaselineMark::none;
  std::string before;  ///< the baseline's outcome, for a regression, fix or flaky finding
};

/// One device's driver section.
struct DriverReport {
  std::string device;  ///< display name
  std::string platform, driver_version, device_type;
  std::string baseline;       ///< the baseline file compared with; empty: none
  std::string baseline_note;  ///< which baseline and why, or why none, for people
  int conforming = 0;         ///< checks that conformed (not listed one by one)
  /// The ids of those checks (the HTML report's matrix draws them); empty in older reports, where
  /// a check not listed is unknown rather than conforming.
  std::vector<std::string> conforming_checks;
  /// Everything else: deviations, crashes, hangs, observations, skipped checks with the reason,
  /// and in regression mode what the baseline has that this run did not see.
  std::vector<DriverFinding> findings;
  std::vector<std::string> notes;
};

/// A whole `clharness check` run.
struct Report {
  /// The version that wrote the report; a merge of reports of several versions lists them all,
  /// joined by ", ", and each unit then names its own (UnitResult::tool_version).
  std::string tool_version;
  uint64_t seed = 0;
  std::vector<std::string> devices;
  std::vector<UnitResult> units;
  std::vector<DriverReport> drivers;  ///< empty when the driver checks did not run
  bool regression_mode = false;       ///< `--baseline`: driver regressions fail the run
  /// An interrupted run: the signal that stopped it (0: the run is complete) and how many units
  /// it planned; every report format marks the report incomplete.
  std::string shard;           ///< "K/N" for a shard of a run (docs/ci.md); empty: whole
  std::string interrupted_by;  ///< e.g. "SIGINT"; empty: complete
  size_t units_planned = 0;
};

/// The exit status of a run: kernel verdicts (isSuccess), and in regression mode the driver
/// findings marked new or regression. True when both are fine.
bool reportPasses(const Report& r);

void to_json(nlohmann::json& j, const Mismatch& m);
void from_json(const nlohmann::json& j, Mismatch& m);
void to_json(nlohmann::json& j, const SourceLine& l);
void from_json(const nlohmann::json& j, SourceLine& l);
void to_json(nlohmann::json& j, const Finding& f);
void from_json(const nlohmann::json& j, Finding& f);
void to_json(nlohmann::json& j, const CaseOutcome& c);
void from_json(const nlohmann::json& j, CaseOutcome& c);
void to_json(nlohmann::json& j, const PerfSample& s);
void from_json(const nlohmann::json& j, PerfSample& s);
void to_json(nlohmann::json& j, const UnitResult& u);
void from_json(const nlohmann::json& j, UnitResult& u);
void to_json(nlohmann::json& j, const DriverFinding& f);
void from_json(const nlohmann::json& j, DriverFinding& f);
void to_json(nlohmann::json& j, const DriverReport& d);
void from_json(const nlohmann::json& j, DriverReport& d);
void to_json(nlohmann::json& j, const Report& r);
/// Reads what to_json wrote (a shard's report, for `clharness merge`); throws
/// nlohmann::json::exception for a missing field.
void from_json(const nlohmann::json& j, Report& r);

}  // namespace clh
