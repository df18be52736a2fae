// References for the matrix-product and pi kernels of seed 002 (Hands On OpenCL) that
// handson_basic.cpp does not cover. Products are summed in double precision; the pi partial
// sums follow the midpoint rule exactly as the kernels' contract states.
#include <cstdint>

#include "core/reference.hpp"

namespace {

// C (n x m) = A (n x p) * B (p x m), row-major, for rows [0, rows); with `add` the product is
// added to C's initial contents. Rows from `rows` on are left as they are.
void matmulRows(clh::RefCase& c, int64_t n, int64_t m, int64_t p, int64_t rows, bool add) {
  auto a = c.in<float>("A");
  auto b = c.in<float>("B");
  auto out = c.out<float>("C");
  for (int64_t i = 0; i < rows && i < n; ++i)
    for (int64_t j = 0; j < m; ++j) {
      double sum = add ? double{out[i * m + j]} : 0.0;
      for (int64_t k = 0; k < p; ++k) sum += double{a[i * p + k]} * b[k * m + j];
      out[i * m + j] = static_cast<float>(sum);
    }
}

}  // namespace

// C = A * B, N x N row-major.
CLH_REFERENCE(handson_matmul_f32) {
  const int64_t n = c.size("N");
  matmulRows(c, n, n, n, n, false);
}

// C += A * B, N x N row-major (the kernels that add into C; the specs start C at zero).
CLH_REFERENCE(handson_matmul_acc_f32) {
  const int64_t n = c.size("N");
  matmulRows(c, n, n, n, n, true);
}

// C = A * B on the first R rows only, N x N row-major; the other rows keep their contents.
// For launches that cover R rows of a row-per-work-item kernel.
CLH_REFERENCE(handson_matmul_rows_f32) {
  const int64_t n = c.size("N");
  matmulRows(c, n, n, n, c.size("R"), false);
}

// C += A * B on the first R rows only, N x N row-major; the other rows keep their contents.
CLH_REFERENCE(handson_matmul_rows_acc_f32) {
  const int64_t n = c.size("N");
  matmulRows(c, n, n, n, c.size("R"), true);
}

// C (NDIM x MDIM) = A (NDIM x PDIM) * B (PDIM x MDIM), row-major.
CLH_REFERENCE(handson_matmul_nmp_f32) {
  const int64_t n = c.size("NDIM");
  matmulRows(c, n, c.size("MDIM"), c.size("PDIM"), n, false);
}

// The midpoint rule for pi = integral of 4 / (1 + x^2) over [0, 1] with G*L*NITERS steps of
// width `step`: group_sums[g] = sum of 4 / (1 + x_s^2), x_s = (s + 0.5) * step, over the steps
// s in [g*L*NITERS, (g+1)*L*NITERS). `step` is the float the kernel received.
CLH_REFERENCE(handson_pi_group_sums) {
  auto out = c.out<float>("group_sums");
  const int64_t groups = c.size("G"), per_group = c.size("L") * c.size("NITERS");
  const double step = static_cast<float>(c.scalar("step"));
  for (int64_t g = 0; g < groups; ++g) {
    double sum = 0;
    for (int64_t s = g * per_group; s < (g + 1) * per_group; ++s) {
      const double x = (static_cast<double>(s) + 0.5) * step;
      sum += 4.0 / (1.0 + x * x);
    }
    out[g] = static_cast<float>(sum);
  }
}
