// Reference solution of the mmul_tiled assignment: C = A * B for N x N row-major matrices, N a
// multiple of TS (given with -DTS=...). Each TS x TS work-group stages one TS x TS block of A and
// one of B in local memory per step; the first barrier makes the blocks complete before they are
// read, the second keeps them intact until every work-item has finished reading them.
__kernel void mmul(const int N, __global float* A, __global float* B, __global float* C) {
  __local float a_block[TS][TS];
  __local float b_block[TS][TS];
  const int r = get_local_id(0);
  const int c = get_local_id(1);
  const int row = get_global_id(0);
  const int col = get_global_id(1);
  float acc = 0.0f;
  for (int base = 0; base < N; base += TS) {
    a_block[r][c] = A[row * N + base + c];
    b_block[r][c] = B[(base + r) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) {
      acc += a_block[r][k] * b_block[k][c];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}
