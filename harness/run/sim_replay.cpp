// Replaying a real device's smallest failing case on the simulator (run/sim_replay.hpp).
#include "run/sim_replay.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/sizes.hpp"
#include "run/units.hpp"

namespace clh {

namespace {

bool explainable(FindingKind k) {
  return k == FindingKind::crash || k == FindingKind::wrong_result || k == FindingKind::unwritten ||
         k == FindingKind::out_of_bounds;
}

// What the simulator's checks report with a place in the source.
bool located(const Finding& f) {
  return !f.lines.empty() && f.kind != FindingKind::tool_error;
}

std::string where(const Finding& f) {
  const SourceLine& l = f.lines.front();
  std::string file = l.file.substr(l.file.find_last_of('/') + 1);
  return fmt::format("{} at {}:{}{}", toString(f.kind), file, l.line,
                     l.text.empty() ? "" : " `" + l.text + "`");
}

}  // namespace

bool worthReplayingOnSimulator(const UnitResult& u, const DeviceInfo& device) {
  if (device.simulator || u.status != Status::fail || !u.failing) return false;
  return std::any_of(u.failing->findings.begin(), u.failing->findings.end(),
                     [](const Finding& f) { return explainable(f.kind); });
}

std::optional<DeviceInfo> anySimulator(const std::vector<DeviceInfo>& selected) {
  for (const auto& d : selected)
    if (d.simulator) return d;
  for (const auto& d : enumerateDevices())
    if (d.simulator) return d;
  return std::nullopt;
}

void explainOnSimulator(const ToolConfig& config, const CheckOptions& options, const Spec& spec,
                        const DeviceInfo& simulator, double budget_s,
                        const std::filesystem::path& scratch, UnitResult& u) {
  CheckOptions one = options;
  one.sizes = formatSizes(u.failing->sizes);
  one.cases = 1;
  one.shrink = false;
  one.timeout_s = budget_s;
  const std::string what =
      "the simulator (" + simulator.displayName() + ") replayed the smallest case " + *one.sizes;
  const UnitResult sim = runUnitIsolated(config, spec, simulator, one, scratch);
  // One finding per kind and statement (the simulator reports every access), with its count.
  std::vector<Finding> found;
  std::vector<int> counts;
  if (sim.failing)
    for (const auto& f : sim.failing->findings) {
      if (!located(f)) continue;
      auto same = std::find_if(found.begin(), found.end(), [&](const Finding& g) {
        return g.kind == f.kind && g.lines.front().file == f.lines.front().file &&
               g.lines.front().line == f.lines.front().line;
      });
      if (same != found.end()) {
        ++counts[same - found.begin()];
      } else if (found.size() < 3) {
        found.push_back(f);
        counts.push_back(1);
      }
    }
  if (found.empty()) {
    const Finding* first =
        sim.failing && !sim.failing->findings.empty() ? &sim.failing->findings.front() : nullptr;
    if (first && first->kind == FindingKind::timeout)
      u.observations.push_back(
          fmt::format("{}: it ran past its {:.0f} s budget, so it cannot say which statement "
                      "caused this",
                      what, budget_s));
    else if (first)
      u.observations.push_back(what + ": it found no statement to blame (" +
                               std::string(toString(first->kind)) + ": " + first->summary + ")");
    else
      u.observations.push_back(what +
                               ": it saw nothing wrong there, so it cannot say which statement "
                               "caused this (the fault may be the device's, or outside what the "
                               "simulator checks)");
    return;
  }
  std::string list;
  for (size_t i = 0; i < found.size(); ++i) {
    Finding f = found[i];
    const std::string times = counts[i] > 1 ? fmt::format(" ({} reports)", counts[i]) : "";
    list += (list.empty() ? "" : "; ") + where(f) + times;
    f.summary = "on the simulator, the same case: " + f.summary;
    f.device = simulator.displayName();
    u.failing->findings.push_back(std::move(f));
  }
  u.observations.push_back(what + ": " + list);
}

}  // namespace clh
