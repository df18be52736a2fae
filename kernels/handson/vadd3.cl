// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), Exercise 5 "The D = A + B + C problem": the
// vadd kernel modified to add three vectors, with the same `count` guard.
__kernel void vadd3(__global const float* a, __global const float* b, __global const float* c,
                    __global float* d, const unsigned int count) {
  int i = get_global_id(0);
  if (i < count) d[i] = a[i] + b[i] + c[i];
}
