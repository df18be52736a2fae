// C = A * B for n x n matrices (n a multiple of TS), in TS x TS tiles staged in __local memory,
// with both barriers: correct.
#define TS 16
__kernel void matmul_tiled(__global const float* A, __global const float* B, __global float* C,
                           int n) {
  __local float As[TS][TS];
  __local float Bs[TS][TS];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n / TS; ++t) {
    As[ly][lx] = A[row * n + t * TS + lx];
    Bs[ly][lx] = B[(t * TS + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) acc += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
