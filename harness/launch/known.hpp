// Known driver deviations of the launch family, per device: what a driver is known to do where
// the specification requires something else, so a run can tell a regression from a known case.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cl/devices.hpp"
#include "launch/family.hpp"

namespace clh::launch {

/// One known deviation, or the key of one failure of a shape: the shape's family, the rules the
/// launch breaks ("none" for a launch that must run; several ids joined by '+'), what the driver
/// gave, and for a launch that ran with wrong results, the kinds of the result check's findings.
struct KnownDeviation {
  /// The family (SpecShape::kind); in a baseline entry, empty matches every family.
  std::string kind;
  std::string rule;
  /// ShapeCheck::gotText() ("completion: CL_SUCCESS (0)"); "crash" stands for any signal.
  std::string got;
  /// Empty: the outcome itself deviates. Otherwise finding kinds joined by '+' ("unwritten"): the
  /// outcome was allowed and the results were wrong.
  std::string results;
  std::string reason;  ///< for people: what the driver does and what the specification says
  /// For people: what the specification allows where `got` came instead (the prediction of the
  /// first shape seen, "enqueue: CL_INVALID_WORK_GROUP_SIZE (-54) | ..."); not used to match.
  std::string allowed;

  /// Whether this entry covers a failure key: the same family (or none named), every rule of the
  /// entry broken by the launch, the same got, and (for results) every kind found listed here.
  bool covers(const KnownDeviation& key) const;
  /// The same failure: family, rules, got and result kinds (reason and allowed aside).
  bool sameKey(const KnownDeviation& other) const {
    return kind == other.kind && rule == other.rule && got == other.got && results == other.results;
  }
};

/// The failures of a shape as keys: one for an outcome the prediction does not accept, one for
/// results that disagree with the reference. Empty for a shape that conforms and checked out.
std::vector<KnownDeviation> failureKeys(const ShapeCheck& check);

/// The shapes of a family that share one failure key, in order of first appearance.
struct FailureGroup {
  KnownDeviation key;
  std::vector<const ShapeCheck*> shapes;  ///< into the result grouped
  bool known = false;                     ///< covered by the baseline it was grouped against
};

struct KnownDeviations;
/// The family's failures grouped by key, each marked known or not against `known`.
std::vector<FailureGroup> groupFailures(const LaunchFamilyResult& result,
                                        const KnownDeviations& known);

/// One device's known deviations: the launch part of its driver baseline (drivers/baseline.hpp).
struct KnownDeviations {
  std::string slug;    ///< DeviceInfo::slug()
  std::string device;  ///< DeviceInfo::displayName(), for people
  bool found = false;  ///< a baseline file was read
  std::string file;    ///< its name in the folder ("nvidia-nvidia-h200.json"), when found
  std::vector<KnownDeviation> entries;

  /// The entry that covers a failure key; nullptr when none does.
  const KnownDeviation* find(const KnownDeviation& key) const;
  /// The failure keys of a shape that no entry covers (empty: the shape is fine or known).
  std::vector<KnownDeviation> uncovered(const ShapeCheck& check) const;
};

/// One entry as a baseline file holds it.
void to_json(nlohmann::json& j, const KnownDeviation& entry);
void from_json(const nlohmann::json& j, KnownDeviation& entry);
nlohmann::json toJson(const KnownDeviations& known);
KnownDeviations knownDeviationsFromJson(const nlohmann::json& json);

/// Every distinct failure key of the results that are on `device` (for a new baseline); an entry
/// of `keep` with the same key keeps its reason, the others say where they were first seen.
KnownDeviations collectDeviations(const std::vector<LaunchFamilyResult>& results,
                                  const DeviceInfo& device, const KnownDeviations& keep = {});

}  // namespace clh::launch
