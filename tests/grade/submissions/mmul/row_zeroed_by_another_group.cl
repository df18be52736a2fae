// Faulty mmul: the first work-item of each row zeroes that row of C, all wait at a barrier, then
// each adds its dot product into its element. A barrier orders the work-items of one work-group
// only: where a row is split over several groups, one group zeroes elements another has written
// or is adding into (a race between work-groups). In one group the results are right.
// expect: clean=race correct=wrong_result?
__kernel void mmul(const int N, __global float* A, __global float* B, __global float* C) {
  const int i = get_global_id(0);
  const int j = get_global_id(1);
  if (j == 0)
    for (int k = 0; k < N; ++k) C[i * N + k] = 0.0f;
  barrier(CLK_GLOBAL_MEM_FENCE);
  float acc = 0.0f;
  for (int k = 0; k < N; ++k) acc += A[i * N + k] * B[k * N + j];
  C[i * N + j] += acc;
}
