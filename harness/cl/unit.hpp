// A unit: one spec on one device, as a rapidcheck property over the spec's sizes. A failure
// shrinks to the smallest failing sizes; the result carries the command that replays it.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "cl/session.hpp"
#include "core/result.hpp"

namespace clh {

struct UnitOptions {
  uint64_t seed = 1;
  int cases = 0;               ///< 0: the spec's own count for the device kind
  std::optional<Sizes> sizes;  ///< replay exactly this case (no generation)
  bool shrink = true;
  /// Draw until `cases` distinct sizes ran (a size drawn again is discarded, not counted), or the
  /// generator keeps drawing sizes already run (a small domain: the message says so). Off: every
  /// draw counts, as `clharness check` has always counted them.
  bool distinct = false;
  /// At most this many distinct programs (build-options texts) in the random cases, the lowest
  /// and highest options of the domain among them (core/program_budget.hpp); 0: no limit. A
  /// replay (`sizes`) runs its one case whatever its options.
  int build_programs = 0;
  std::string tool = "clharness";                   ///< how the replay command names the tool
  std::function<void(const Sizes&)> on_case_start;  ///< called before each case (crash attribution)
  /// Each case runs once per entry (buffer and read modes); all must agree with the reference.
  std::vector<RunOptions> modes{RunOptions{}};
};

/// Runs `spec` on the session's device. Exceptions only for a spec that cannot be evaluated.
UnitResult runUnit(DeviceSession& session, const Spec& spec, const UnitOptions& options);

/// The command that replays one case.
std::string replayCommand(const std::string& tool, const std::string& specFile,
                          const std::string& deviceDisplayName, uint64_t seed, const Sizes& sizes);

/// The seed rapidcheck uses for a spec: a function of the run seed and the spec's name only, so
/// every device sees the same sizes.
uint64_t propertySeed(uint64_t runSeed, const std::string& specName);

/// The finding kinds the spec's `expect` names for this device: empty when it expects none, or
/// names other devices (`expect: {devices: REGEX}`).
std::vector<FindingKind> expectedFindings(const Spec& spec, const DeviceInfo& device);

/// Whether the spec's expected finding must show on this device (`expect.certain`); true when the
/// spec expects nothing here.
bool expectationCertain(const Spec& spec, const DeviceInfo& device);

/// A unit's result with what every family fills the same way: the spec, the device, the seed.
UnitResult unitFor(const Spec& spec, const DeviceInfo& device, uint64_t seed,
                   std::string family = "cases");

/// How a quiet property run ended, where it did not simply pass or fail.
struct PropertyEnd {
  bool gave_up = false;  ///< too many generated sizes were discarded
  int successes = 0;     ///< when it gave up
  std::string why;       ///< rapidcheck's description (gave up, or a property error)
  bool error = false;    ///< the property itself failed to run
};

/// Runs `property` as every unit does: `cases` passing calls wanted, sizes up to 100, at most 50
/// discards per success, shrinking unless `shrink` is false, nothing printed, and none of
/// rapidcheck's global configuration (RC_PARAMS) read.
PropertyEnd checkQuietly(const std::function<void()>& property, const std::string& id,
                         uint64_t seed, int cases, bool shrink);

/// Turns a case's findings into the unit's status, given what the spec expects on this device.
Status classify(const CaseOutcome& failing, const std::vector<FindingKind>& expected);

}  // namespace clh
