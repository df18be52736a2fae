// Element-by-element comparison of an output with its reference, and output poisoning.
#pragma once

#include <cstdint>
#include <vector>

#include "core/finding.hpp"
#include "core/hostbuffer.hpp"

namespace clh {

/// The resolved tolerance of one comparison (expressions already evaluated).
struct Tolerance {
  CompareSpec::Kind kind = CompareSpec::Kind::exact;
  int64_t ulp = 0;
  double abs = 0, rel = 0;
};

/// Fills a buffer with the poison pattern: a signalling-looking NaN for floats, 0xA5.. for
/// integers.
void poison(HostBuffer& buf);
/// True when element `i` still holds the poison pattern.
bool isPoison(const HostBuffer& buf, size_t i);

/// Distance in units in the last place between two floats of the same type (0 when equal).
uint64_t ulpDistance(float a, float b);
uint64_t ulpDistance(double a, double b);

/// Compares `got` with `want`. Returns the number of mismatches; appends up to `keep` of them to
/// `first` (indices in `shape`, row-major; flat when `shape` is empty).
int64_t compareBuffers(const std::string& name, const HostBuffer& got, const HostBuffer& want,
                       const Tolerance& tol, const std::vector<int64_t>& shape, size_t keep,
                       std::vector<Mismatch>& first);

}  // namespace clh
