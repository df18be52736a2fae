// The finding vocabulary's spellings.
#include "core/finding.hpp"

#include "core/enum_words.hpp"

namespace clh {

namespace {
constexpr EnumWord<FindingKind> kFindingKindWords[] = {
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
};
}  // namespace

std::string_view toString(FindingKind kind) {
  return wordOf(kFindingKindWords, kind, "other");
}

std::optional<FindingKind> findingKindFromString(std::string_view word) {
  return valueOf(kFindingKindWords, word);
}

const std::vector<FindingKind>& allFindingKinds() {
  static const std::vector<FindingKind> all = valuesOf(kFindingKindWords);
  return all;
}

}  // namespace clh
