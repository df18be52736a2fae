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
};
std::string_view toString(Status s);
std::optional<Status> statusFromString(std::string_view s);
/// Whether a status counts as success for exit codes (pass, expected_failure, skipped, tool_error).
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

/// One spec on one device.
struct UnitResult {
  /// What the unit checked: "cases" (the spec's random cases against its reference) or "launch"
  /// (generated launch shapes against the specification's rules, see docs/semantics.md).
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
  double seconds = 0;

  /// "spec" for the cases, "spec [launch]" for another family: how reports name the unit.
  std::string title() const;
};

/// A whole `clharness check` run.
struct Report {
  std::string tool_version;
  uint64_t seed = 0;
  std::vector<std::string> devices;
  std::vector<UnitResult> units;
};

void to_json(nlohmann::json& j, const Mismatch& m);
void from_json(const nlohmann::json& j, Mismatch& m);
void to_json(nlohmann::json& j, const SourceLine& l);
void from_json(const nlohmann::json& j, SourceLine& l);
void to_json(nlohmann::json& j, const Finding& f);
void from_json(const nlohmann::json& j, Finding& f);
void to_json(nlohmann::json& j, const CaseOutcome& c);
void from_json(const nlohmann::json& j, CaseOutcome& c);
void to_json(nlohmann::json& j, const UnitResult& u);
void from_json(const nlohmann::json& j, UnitResult& u);
void to_json(nlohmann::json& j, const Report& r);

}  // namespace clh
