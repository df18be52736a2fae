// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), "Vector Addition - Kernel" and Exercise 2/3:
// the host enqueues it with NDRange(count), NDRange(local) and passes `count`, so the kernel keeps
// work-items past the end of the vectors from writing.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  int i = get_global_id(0);
  if (i < count) c[i] = a[i] + b[i];
}
