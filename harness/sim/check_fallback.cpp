// The checks a simulator process leaves off after a crash, and the reruns that find which.
#include "sim/check_fallback.hpp"

#include <cstdlib>

#include "core/enum_words.hpp"

namespace clh {

namespace {
constexpr EnumWord<OclgrindCheck> kOclgrindCheckWords[] = {
    {OclgrindCheck::uninitialized, "uninitialized"},
    {OclgrindCheck::data_races, "data_races"},
};
}  // namespace

std::string_view toString(OclgrindCheck check) {
  return wordOf(kOclgrindCheckWords, check, "data_races");
}

std::string describe(OclgrindCheck check) {
  return check == OclgrindCheck::uninitialized
             ? "uninitialized-value check (OCLGRIND_UNINITIALIZED)"
             : "data-race check (OCLGRIND_DATA_RACES)";
}

std::string_view oclgrindVariable(OclgrindCheck check) {
  return check == OclgrindCheck::uninitialized ? "OCLGRIND_UNINITIALIZED" : "OCLGRIND_DATA_RACES";
}

std::vector<OclgrindCheck> parseSkippedChecks(std::string_view text) {
  std::vector<OclgrindCheck> out;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find(',', begin);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(begin, end - begin);
    if (const auto check = valueOf(kOclgrindCheckWords, word)) {
      bool seen = false;
      for (OclgrindCheck c : out) seen = seen || c == *check;
      if (!seen) out.push_back(*check);
    }
    begin = end + 1;
  }
  return out;
}

std::string formatSkippedChecks(const std::vector<OclgrindCheck>& checks) {
  std::string out;
  for (OclgrindCheck c : checks) out += (out.empty() ? "" : ",") + std::string(toString(c));
  return out;
}

std::vector<OclgrindCheck> skippedChecksFromEnvironment() {
  const char* value = std::getenv(kSkipChecksVariable);
  return value ? parseSkippedChecks(value) : std::vector<OclgrindCheck>{};
}

std::vector<std::vector<OclgrindCheck>> checkFallbackOrder() {
  return {{OclgrindCheck::uninitialized},
          {OclgrindCheck::data_races},
          {OclgrindCheck::uninitialized, OclgrindCheck::data_races}};
}

std::string skippedChecksNote(const std::vector<OclgrindCheck>& skipped) {
  if (skipped.empty()) return {};
  std::string which;
  for (size_t i = 0; i < skipped.size(); ++i)
    which += (i == 0 ? "" : " and ") + describe(skipped[i]);
  const bool one = skipped.size() == 1;
  return "the simulator's " + which + " could not run: Oclgrind crashed with " +
         (one ? "it" : "them") +
         " on (the simulator's failure, not the kernel's); the run was repeated without " +
         (one ? "it" : "them") + (one ? " and its other checks ran" : " and its memory checks ran");
}

std::vector<std::string> withSkippedChecks(std::vector<std::string> argv,
                                           const std::vector<OclgrindCheck>& skip) {
  if (skip.empty()) return argv;
  std::vector<std::string> out = {
      "/usr/bin/env", std::string(kSkipChecksVariable) + "=" + formatSkippedChecks(skip)};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

CheckFallbackOutcome runWithCheckFallback(
    const std::function<bool(const std::vector<OclgrindCheck>& skip)>& attempt) {
  CheckFallbackOutcome out;
  ++out.attempts;
  if (!attempt({})) return out;
  for (const auto& skip : checkFallbackOrder()) {
    ++out.attempts;
    if (!attempt(skip)) {
      out.skipped = skip;
      out.note = skippedChecksNote(skip);
      return out;
    }
  }
  out.crashed = true;
  return out;
}

}  // namespace clh
