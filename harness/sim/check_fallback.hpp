// Oclgrind crashing with one of its checks on (21.10's uninitialized-value check dies on some
// float4 constant vectors): the process is run again without that check, so the other checks
// still run, and the report says which check could not. The parent that starts simulator
// processes calls runWithCheckFallback; the child's OclgrindSession reads which checks to leave
// off.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clh {

/// The checks of Oclgrind's that can be left off one at a time.
enum class OclgrindCheck { uninitialized, data_races };

/// "uninitialized", "data_races": the words of kSkipChecksVariable.
std::string_view toString(OclgrindCheck check);
/// "uninitialized-value check (OCLGRIND_UNINITIALIZED)", "data-race check (OCLGRIND_DATA_RACES)".
std::string describe(OclgrindCheck check);
/// The variable Oclgrind reads to switch the check on.
std::string_view oclgrindVariable(OclgrindCheck check);

/// The environment variable a simulator process reads (through OclgrindSession): a comma-separated
/// list of checks to leave off, e.g. "uninitialized". Unknown words are ignored.
inline constexpr const char* kSkipChecksVariable = "CLHARNESS_OCLGRIND_SKIP_CHECKS";

std::vector<OclgrindCheck> parseSkippedChecks(std::string_view text);
std::string formatSkippedChecks(const std::vector<OclgrindCheck>& checks);
/// parseSkippedChecks of this process's kSkipChecksVariable.
std::vector<OclgrindCheck> skippedChecksFromEnvironment();

/// The note of a unit whose cases all launch one work-item (core/sizes.hpp,
/// oneWorkItemOnSimulator): its process leaves the data-race check off, having nothing to look for.
inline constexpr const char* kOneWorkItemNote =
    "the simulator's data-race check was left off: every case launches a single work-item, and "
    "a race needs two";

/// What to leave off after a crash with every check on, in order: the uninitialized-value check
/// alone (the one seen to crash), the data-race check alone, then both.
std::vector<std::vector<OclgrindCheck>> checkFallbackOrder();

/// The note for a report: which checks could not run and why, charged to the simulator; empty for
/// an empty list.
std::string skippedChecksNote(const std::vector<OclgrindCheck>& skipped);

/// `argv` run with kSkipChecksVariable set to `skip` in the child's environment only (through
/// /usr/bin/env); `argv` unchanged when `skip` is empty.
std::vector<std::string> withSkippedChecks(std::vector<std::string> argv,
                                           const std::vector<OclgrindCheck>& skip);

struct CheckFallbackOutcome {
  /// The checks left off in the attempt that stands (the last one); empty: every check ran.
  std::vector<OclgrindCheck> skipped;
  int attempts = 0;
  /// Every attempt crashed, also without the checks: the crash is not a check's, and the first
  /// attempt's outcome is the one to report (the caller keeps it).
  bool crashed = false;
  /// skippedChecksNote(skipped) when an attempt without crash left checks off.
  std::string note;
};

/// Runs `attempt(skip)`: one simulator process with the checks in `skip` left off (the caller puts
/// them in the process's environment, e.g. with withSkippedChecks), returning true when the process
/// crashed (died from a signal). First with every check on; after a crash, along
/// checkFallbackOrder() until an attempt does not crash. The caller keeps each attempt's outcome
/// and uses the last one's, or the first one's when `crashed`.
CheckFallbackOutcome runWithCheckFallback(
    const std::function<bool(const std::vector<OclgrindCheck>& skip)>& attempt);

}  // namespace clh
