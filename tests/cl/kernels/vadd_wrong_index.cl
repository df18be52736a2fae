// Test fixture: vadd with a wrong index (b is read back to front). Right only for count == 1.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  int i = get_global_id(0);
  if (i < count) c[i] = a[i] + b[count - 1 - i];
}
