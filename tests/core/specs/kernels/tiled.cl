// Fixture kernel for tests/core/specs/full.yaml: two launches sharing buffers; never built.
__kernel void first(__global const double* A, __global int* B, float alpha, __local float* tile) {
  tile[get_local_id(0)] = (float)A[get_global_id(0)] * alpha;
  barrier(CLK_LOCAL_MEM_FENCE);
  B[get_global_id(0)] += (int)tile[0];
}

__kernel void second(__global float* C, __global uchar* T) {
  C[get_global_id(0)] = (float)T[get_global_id(0) % TS];
}
