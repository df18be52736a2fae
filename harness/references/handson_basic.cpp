// References for the first Hands On OpenCL kernels (seed 002): vadd, times_two, mul, vadd3 and the
// vadd chain. Float arithmetic in the kernels' own order, so exact comparison is meaningful.
#include "core/reference.hpp"

CLH_REFERENCE(vadd_f32) {
  auto a = c.in<float>("a");
  auto b = c.in<float>("b");
  auto out = c.out<float>("c");
  for (int64_t i = 0, n = c.size("N"); i < n; ++i) out[i] = a[i] + b[i];
}

CLH_REFERENCE(times_two_f32) {
  auto in = c.in<float>("input");
  auto out = c.out<float>("output");
  for (int64_t i = 0, n = c.size("N"); i < n; ++i) out[i] = 2.0f * in[i];
}

CLH_REFERENCE(mul_f32) {
  auto a = c.in<float>("a");
  auto b = c.in<float>("b");
  auto out = c.out<float>("c");
  for (int64_t i = 0, n = c.size("N"); i < n; ++i) out[i] = a[i] * b[i];
}

CLH_REFERENCE(vadd3_f32) {
  auto a = c.in<float>("a");
  auto b = c.in<float>("b");
  auto cc = c.in<float>("c");
  auto d = c.out<float>("d");
  for (int64_t i = 0, n = c.size("N"); i < n; ++i) d[i] = (a[i] + b[i]) + cc[i];
}

CLH_REFERENCE(vadd_chain_f32) {
  auto A = c.in<float>("A");
  auto B = c.in<float>("B");
  auto E = c.in<float>("E");
  auto G = c.in<float>("G");
  auto C = c.out<float>("C");
  auto D = c.out<float>("D");
  auto F = c.out<float>("F");
  for (int64_t i = 0, n = c.size("N"); i < n; ++i) {
    C[i] = A[i] + B[i];
    D[i] = C[i] + E[i];
    F[i] = D[i] + G[i];
  }
}
