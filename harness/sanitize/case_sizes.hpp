// The sizes a sanitized unit runs at: drawn from a spec's full ranges (never the simulator's
// small ones), the largest the ranges allow first, then a few random draws, each within a memory
// bound; and a spec made concrete at one of them (every parameter replaced by its value).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cl/devices.hpp"
#include "core/spec.hpp"

namespace clh::sanitize {

/// At most this many sanitized cases per spec and device: the largest, then random draws.
inline constexpr int kSanitizedCases = 4;

/// The sizes chosen, and what was left out (a size over the memory bound, a corner outside the
/// domain), said rather than silent.
struct ChosenSizes {
  std::vector<Sizes> sizes;        ///< complete (derived parameters filled), distinct
  std::vector<std::string> notes;  ///< for the unit's observations
};

/// Up to `count` distinct sizes in the spec's full domain: first the largest (each ranged
/// parameter at its upper bound, each `one_of` at its greatest value; lowered until the
/// constraints hold and the case fits), then random draws from the spec's generator with `seed`.
/// A case fits when its buffers, with the sanitizer's __global shadow (kGlobalShadowUints bytes
/// per byte), take at most `memoryBudget(dev)` bytes and each buffer at most the device's largest
/// allocation.
ChosenSizes chooseSanitizedSizes(const Spec& spec, const DeviceInfo& dev, uint64_t seed,
                                 int count = kSanitizedCases);

/// The bytes a sanitized case may use on `dev`: a quarter of its global memory, at most 2 GiB.
uint64_t memoryBudget(const DeviceInfo& dev);

/// The bytes of the spec's buffers at `sizes` (throws ExprError when a count cannot be
/// evaluated).
uint64_t bufferBytes(const Spec& spec, const Sizes& sizes);

/// `spec` with every expression's parameters replaced by their values in `sizes` and the build
/// options' `{EXPR}` evaluated: resolving it needs no sizes (what sanitize::runSanitized does).
Spec concreteSpec(const Spec& spec, const Sizes& sizes);

}  // namespace clh::sanitize
