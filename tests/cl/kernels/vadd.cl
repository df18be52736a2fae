// Test fixture: a correct vadd with its count guard.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  int i = get_global_id(0);
  if (i < count) c[i] = a[i] + b[i];
}
