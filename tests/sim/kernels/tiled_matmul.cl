// Tiled matrix multiply C = A * B (N x N, row-major) through TS x TS tiles in local memory.
// Built with -DDROP_SECOND_BARRIER the barrier after the inner product goes: a local read-write race.
__kernel void mmul(const int N, __global const float* A, __global const float* B,
                   __global float* C, __local float* Awrk, __local float* Bwrk) {
  const int i = get_global_id(1);
  const int j = get_global_id(0);
  const int li = get_local_id(1);
  const int lj = get_local_id(0);
  float acc = 0.0f;
  for (int t = 0; t < N / TS; ++t) {
    Awrk[li * TS + lj] = A[i * N + t * TS + lj];
    Bwrk[li * TS + lj] = B[(t * TS + li) * N + j];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) {
      acc += Awrk[li * TS + k] * Bwrk[k * TS + lj];
    }
#ifndef DROP_SECOND_BARRIER
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
  }
  C[i * N + j] = acc;
}
