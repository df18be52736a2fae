// Faulty mmul_tiled: no barrier after the products of a step, so a fast work-item overwrites a
// tile that others are still reading. CPU drivers happen to run it right; the simulator shows the
// race (and, through its schedule, wrong results as a consequence).
// expect: clean=race
__kernel void mmul(const int N, __global float* A, __global float* B, __global float* C) {
  __local float Asub[TS][TS];
  __local float Bsub[TS][TS];
  int r = get_local_id(0), c = get_local_id(1);
  int row = get_global_id(0), col = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < N / TS; t++) {
    Asub[r][c] = A[row * N + t * TS + c];
    Bsub[r][c] = B[(t * TS + r) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; k++) acc += Asub[r][k] * Bsub[k][c];
  }
  C[row * N + col] = acc;
}
