// The consumer example's reference: the scalar C++ that reverse.cl must match, registered by name
// for specs/reverse.yaml (`reference: reverse_i32`). Linked into the runner, not into clharness.
#include "core/reference.hpp"

CLH_REFERENCE(reverse_i32) {
  auto in = c.in<int32_t>("in");
  auto out = c.out<int32_t>("out");
  const int64_t n = c.size("N");
  for (int64_t i = 0; i < n; ++i) out[i] = in[n - 1 - i];
}
