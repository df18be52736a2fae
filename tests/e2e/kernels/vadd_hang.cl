// Test fixture: vadd that waits forever for a flag nobody sets (a volatile read keeps the loop).
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  int i = get_global_id(0);
  volatile __global const float* spin = b;
  while (spin[0] == spin[0] || spin[0] != spin[0]) {
  }
  if (i < count) c[i] = a[i] + b[i];
}
