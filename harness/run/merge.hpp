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
};

/// Merges `reports` (read from `names`, for the notes) in the order given.
MergeOutcome mergeReports(const std::vector<Report>& reports,
                          const std::vector<std::string>& names);

}  // namespace clh
