// Faulty mmul: every work-item of a work-group adds to one __local counter with no atomic and no
// barrier (an intra-group race). The mmul assignment leaves the local size to the driver, so the
// simulator must run groups larger than one work-item to see it; the results stay right.
// expect: clean=race
__kernel void mmul(const int N, __global float* A, __global float* B, __global float* C) {
  __local int products;
  int i = get_global_id(0);
  int j = get_global_id(1);
  if (get_local_id(0) == 0 && get_local_id(1) == 0) products = 0;
  float tmp = 0.0f;
  for (int k = 0; k < N; k++) tmp += A[i * N + k] * B[k * N + j];
  products += N;
  C[i * N + j] = tmp;
}
