// Reference solution of the mmul assignment (Hands-On OpenCL, Exercise 6): C = A * B for N x N
// row-major matrices, one work-item per element of C. C's initial contents are undefined, so the
// dot product is formed in a private variable and stored once.
__kernel void mmul(const int N, __global float* A, __global float* B, __global float* C) {
  const int row = get_global_id(0);
  const int col = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < N; ++k) {
    acc += A[row * N + k] * B[k * N + col];
  }
  C[row * N + col] = acc;
}
