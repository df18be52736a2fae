// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), "Execution model (kernels)": one work-item per
// element, no size argument (the global size is the vector length).
__kernel void times_two(__global float* input, __global float* output) {
  int i = get_global_id(0);
  output[i] = 2.0f * input[i];
}
