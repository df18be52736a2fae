// References for the kernels of seed 004 (the 2009 blog series on matrix multiplication in
// OpenCL): the row-major matrix product of MM1, MM2 and MM3, summed in double precision.
#include "core/reference.hpp"

// C = A * B with A HA x WA, B WA x WB and C HA x WB, row-major.
CLH_REFERENCE(blog_matmul_f32) {
  auto a = c.in<float>("A");
  auto b = c.in<float>("B");
  auto out = c.out<float>("C");
  const int64_t ha = c.size("HA"), wa = c.size("WA"), wb = c.size("WB");
  for (int64_t r = 0; r < ha; ++r)
    for (int64_t col = 0; col < wb; ++col) {
      double sum = 0;
      for (int64_t k = 0; k < wa; ++k) sum += double{a[r * wa + k]} * b[k * wb + col];
      out[r * wb + col] = static_cast<float>(sum);
    }
}
