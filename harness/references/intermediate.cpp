// References for the kernels of seed 000 (Intermediate OpenCL Programming): vector addition on
// cl_uint, the global and local index maps of a 2-D range, and the int N x N matrix product.
// Each follows the mathematics, not the kernels' code.
#include <cstdint>

#include "core/reference.hpp"

// C = A + B element by element on 32-bit unsigned integers, modulo 2^32 as in OpenCL C.
CLH_REFERENCE(intermediate_vector_add_u32) {
  auto a = c.in<uint32_t>("A");
  auto b = c.in<uint32_t>("B");
  auto out = c.out<uint32_t>("C");
  const int64_t n = c.size("N");
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint32_t>(uint64_t{a[i]} + b[i]);
}

// globalId[d][i][j] is the work-item (i, j)'s global id in dimension d: i for d = 0, j for d = 1.
CLH_REFERENCE(intermediate_global_id) {
  auto g = c.out<int32_t>("globalId");
  const int64_t n = c.size("N");
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      g[i * n + j] = static_cast<int32_t>(i);
      g[n * n + i * n + j] = static_cast<int32_t>(j);
    }
}

// As above, plus localId[d][i][j]: with no offset and work-groups of LR x LC, the local id is the
// global id modulo the work-group's extent in that dimension.
CLH_REFERENCE(intermediate_global_local_id) {
  auto g = c.out<int32_t>("globalId");
  auto l = c.out<int32_t>("localId");
  const int64_t n = c.size("N"), lr = c.size("LR"), lc = c.size("LC");
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      g[i * n + j] = static_cast<int32_t>(i);
      g[n * n + i * n + j] = static_cast<int32_t>(j);
      l[i * n + j] = static_cast<int32_t>(i % lr);
      l[n * n + i * n + j] = static_cast<int32_t>(j % lc);
    }
}

// C = A * B for N x N row-major int matrices. The sum is formed in 64 bits and wrapped to 32, the
// two's-complement result a 32-bit accumulation gives when it does not overflow (the specs keep
// the inputs small enough that it never does).
CLH_REFERENCE(intermediate_matmul_i32) {
  auto a = c.in<int32_t>("A");
  auto b = c.in<int32_t>("B");
  auto out = c.out<int32_t>("C");
  const int64_t n = c.size("N");
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (int64_t k = 0; k < n; ++k) sum += int64_t{a[i * n + k]} * b[k * n + j];
      out[i * n + j] = static_cast<int32_t>(static_cast<uint32_t>(sum));
    }
}
