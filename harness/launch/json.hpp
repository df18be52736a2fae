// JSON forms of the launch family's values: the lines a child process writes while it runs the
// family (so a parent can rebuild the result, and attribute a crash to its shape), and the
// report that `clharness launch --json` writes.
#pragma once

#include <nlohmann/json.hpp>

#include "launch/family.hpp"
#include "launch/known.hpp"

namespace clh::launch {

nlohmann::json toJson(const SpecLaunch& launch);
SpecLaunch specLaunchFromJson(const nlohmann::json& json);

nlohmann::json toJson(const ShapeCheck& check);
ShapeCheck shapeCheckFromJson(const nlohmann::json& json);

/// The result without its shapes (what a child sends before the first shape), or with them.
nlohmann::json toJson(const LaunchFamilyResult& result, bool with_shapes);
/// Reads either form; throws nlohmann::json::exception for a missing field.
LaunchFamilyResult familyFromJson(const nlohmann::json& json);

/// The summary of one family for reports: counts per family and in all, and the failures
/// grouped by key (family, rules, got, result kinds; see known.hpp), each with its count, the
/// indices of its shapes, one example with what was predicted and what was got, and whether
/// `known` (may be null) covers it.
nlohmann::json summaryJson(const LaunchFamilyResult& result, const KnownDeviations* known);

}  // namespace clh::launch
