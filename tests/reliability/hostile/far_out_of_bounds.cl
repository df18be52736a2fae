// Hostile vadd: writes a gigabyte past the end of its output.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  const size_t i = get_global_id(0);
  if (i < count) c[i + 268435456] = a[i] + b[i];
}
