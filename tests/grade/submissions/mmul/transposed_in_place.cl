// Faulty mmul: transposes B in place (each work-item above the diagonal swaps its element with the
// mirrored one), waits at a barrier, and reads B's rows as columns. A barrier orders the work-items
// of one work-group only: where the driver splits the range into several groups, a group reads
// elements another swaps (a race between work-groups). In one group the results are right.
// expect: clean=race correct=wrong_result?
__kernel void mmul(const int N, __global float* A, __global float* B, __global float* C) {
  const int i = get_global_id(0);
  const int j = get_global_id(1);
  if (i < j) {
    const float t = B[i * N + j];
    B[i * N + j] = B[j * N + i];
    B[j * N + i] = t;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  float acc = 0.0f;
  for (int k = 0; k < N; ++k) acc += A[i * N + k] * B[j * N + k];
  C[i * N + j] = acc;
}
