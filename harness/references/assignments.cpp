// References of the grading assignments (specs/assignments): vector addition, the N x N matrix
// product (mmul and mmul_tiled) and the per-group midpoint sums of the pi exercise.
#include <cstdint>

#include "core/reference.hpp"

// c[i] = a[i] + b[i] for the `count` elements: one float addition, as the kernel does it.
CLH_REFERENCE(assignment_vadd_f32) {
  auto a = c.in<float>("a");
  auto b = c.in<float>("b");
  auto out = c.out<float>("c");
  const auto count = static_cast<int64_t>(c.scalar("count"));
  for (int64_t i = 0; i < count; ++i) out[i] = a[i] + b[i];
}

// C = A * B, N x N row-major, each dot product summed in double and rounded once.
CLH_REFERENCE(assignment_mmul_f32) {
  const int64_t n = c.size("N");
  auto a = c.in<float>("A");
  auto b = c.in<float>("B");
  auto out = c.out<float>("C");
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t k = 0; k < n; ++k) sum += double{a[i * n + k]} * double{b[k * n + j]};
      out[i * n + j] = static_cast<float>(sum);
    }
}

// partial_sums[g] = the sum of 4 / (1 + x^2) at x = (i + 0.5) * step_size over the steps i of
// group g, [g*L*NITERS, (g+1)*L*NITERS); step_size is the float the kernel was given.
CLH_REFERENCE(assignment_pi_partial_sums) {
  auto out = c.out<float>("partial_sums");
  const int64_t groups = c.size("G");
  const int64_t steps = c.size("L") * c.size("NITERS");
  const double step = static_cast<float>(c.scalar("step_size"));
  for (int64_t g = 0; g < groups; ++g) {
    double sum = 0;
    for (int64_t i = g * steps; i < (g + 1) * steps; ++i) {
      const double x = (static_cast<double>(i) + 0.5) * step;
      sum += 4.0 / (1.0 + x * x);
    }
    out[g] = static_cast<float>(sum);
  }
}
