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

/// Turns a case's findings into the unit's status, given what the spec expects on this device.
Status classify(const CaseOutcome& failing, const std::vector<FindingKind>& expected);

}  // namespace clh
