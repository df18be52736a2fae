// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), "Data Parallel OpenCL": element-wise product,
// one work-item per element.
__kernel void mul(__global const float* a, __global const float* b, __global float* c) {
  int id = get_global_id(0);
  c[id] = a[id] * b[id];
}
