// `clharness merge`: one report from the reports of many shards and machines (docs/ci.md). Units
// keep their device; each device's driver section is the union of what the shards saw of it.
#pragma once

#include <string>
#include <vector>

#include "core/result.hpp"

namespace clh {

struct MergeOutcome {
  Report report;
  /// What a person should know: a unit that came twice (the first kept), shards of another seed
  /// or tool version, a shard that is missing from a K/N series, an incomplete input.
  std::vector<std::string> notes;
  /// False when a shard of a K/N series is missing or an input is incomplete (interrupted): the
  /// merge is not the whole run. An incomplete input also marks `report` incomplete.
  bool complete = true;
};

/// Merges `reports` (read from `names`, for the notes) in the order given. Inputs may come from
/// machines with different devices: a unit or a driver finding seen on one of them is reported
/// once, never as missing because another machine did not see it. A driver finding one input
/// marks `missing` (in its baseline, not seen by that shard's specs) and another saw is the seen
/// one.
MergeOutcome mergeReports(const std::vector<Report>& reports,
                          const std::vector<std::string>& names);

}  // namespace clh
