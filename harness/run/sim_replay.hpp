// A fault a real device shows (a crash, wrong or unwritten results, a stray write into a guard
// zone), often at a size beyond the simulator's range, replayed on the simulator at its smallest
// case to name the statement and the kind; the unit says what the simulator found, or that it could
// not tell.
#pragma once

#include <filesystem>
#include <optional>

#include "cl/devices.hpp"
#include "core/result.hpp"
#include "core/spec.hpp"
#include "run/check.hpp"

namespace clh {

/// Whether a unit's failure on a real device is one the simulator can explain by replaying it.
bool worthReplayingOnSimulator(const UnitResult& unit, const DeviceInfo& device);

/// Replays `unit`'s smallest failing case on `simulator` in a child process with a time budget
/// (`budget_s`) and adds what it found to the unit: each simulator finding with a source line is
/// appended to the failing case's findings (its device the simulator's, its summary saying it comes
/// from the replay), and one observation says what the replay found, or why it could not tell.
/// Never changes the unit's status: the real device's failure is the verdict.
void explainOnSimulator(const ToolConfig& config, const CheckOptions& options, const Spec& spec,
                        const DeviceInfo& simulator, double budget_s,
                        const std::filesystem::path& scratch, UnitResult& unit);

/// The first simulator among the devices this process finds (registered ICDs), if any.
std::optional<DeviceInfo> anySimulator(const std::vector<DeviceInfo>& selected);

}  // namespace clh
