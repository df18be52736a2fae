// References for the kernels of seed 003 (Perroni, OpenCL slides): the row-major matrix product
// of simpleMatrixMul and optimizedMatrixMul, summed in double precision.
#include "core/reference.hpp"

// C = A * B with A M x WA, B WA x N and C M x N, row-major.
CLH_REFERENCE(perroni_matmul_f32) {
  auto a = c.in<float>("A");
  auto b = c.in<float>("B");
  auto out = c.out<float>("C");
  const int64_t m = c.size("M"), wa = c.size("WA"), n = c.size("N");
  for (int64_t r = 0; r < m; ++r)
    for (int64_t col = 0; col < n; ++col) {
      double sum = 0;
      for (int64_t k = 0; k < wa; ++k) sum += double{a[r * wa + k]} * b[k * n + col];
      out[r * n + col] = static_cast<float>(sum);
    }
}
