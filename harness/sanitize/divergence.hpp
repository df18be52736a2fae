// Barrier divergence from the sanitizer's records: a branch that decides whether a barrier is
// reached, on which the work-items of a group disagreed (runtime_calls.cpp recorded it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "sanitize/rewrite.hpp"

namespace clh::sanitize {

/// The finding of branch site `s` whose record `r` has the divergence bit (runtime.hpp's words
/// kDiv*): charged to the kernel at the barrier's line; decodeRecords adds the branch's line first.
Finding divergence(const Instrumented& inst, size_t s, const uint32_t* r,
                   const std::string& shown_path, const std::vector<std::string>& source_lines);

}  // namespace clh::sanitize
