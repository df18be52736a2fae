// References for the kernels of seed 001 (HackMD notes on local memory): the myGEMM product of
// column-major matrices, summed in double precision.
#include "core/reference.hpp"

// C = A * B with A M x K, B K x N and C M x N, all column-major: element (r, c) of an R-row
// matrix X is X[c * R + r].
CLH_REFERENCE(hackmd_gemm_colmajor_f32) {
  auto a = c.in<float>("A");
  auto b = c.in<float>("B");
  auto out = c.out<float>("C");
  const int64_t m = c.size("M"), n = c.size("N"), kk = c.size("K");
  for (int64_t col = 0; col < n; ++col)
    for (int64_t row = 0; row < m; ++row) {
      double sum = 0;
      for (int64_t k = 0; k < kk; ++k) sum += double{a[k * m + row]} * b[col * kk + k];
      out[col * m + row] = static_cast<float>(sum);
    }
}
