// The finding vocabulary's spellings.
#include "core/finding.hpp"

#include <array>
#include <utility>

namespace clh {

namespace {
constexpr std::array<std::pair<FindingKind, std::string_view>, 16> kNames{{
    {FindingKind::wrong_result, "wrong_result"},
    {FindingKind::unwritten, "unwritten"},
    {FindingKind::build_error, "build_error"},
    {FindingKind::race, "race"},
    {FindingKind::out_of_bounds, "out_of_bounds"},
    {FindingKind::uninitialized, "uninitialized"},
    {FindingKind::divergence, "divergence"},
    {FindingKind::missing_wait, "missing_wait"},
    {FindingKind::misaligned, "misaligned"},
    {FindingKind::access_mode, "access_mode"},
    {FindingKind::api_error, "api_error"},
    {FindingKind::launch_error, "launch_error"},
    {FindingKind::timeout, "timeout"},
    {FindingKind::crash, "crash"},
    {FindingKind::tool_error, "tool_error"},
    {FindingKind::other, "other"},
}};
}  // namespace

std::string_view toString(FindingKind kind) {
  for (const auto& [k, name] : kNames)
    if (k == kind) return name;
  return "other";
}

std::optional<FindingKind> findingKindFromString(std::string_view word) {
  for (const auto& [k, name] : kNames)
    if (name == word) return k;
  return std::nullopt;
}

const std::vector<FindingKind>& allFindingKinds() {
  static const std::vector<FindingKind> all = [] {
    std::vector<FindingKind> v;
    for (const auto& entry : kNames) v.push_back(entry.first);
    return v;
  }();
  return all;
}

}  // namespace clh
