// Hostile vadd: never ends, on every device.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  const size_t i = get_global_id(0);
  volatile __global const float* spin = b;
  while (spin[0] == spin[0] || spin[0] != spin[0]) {
  }
  if (i < count) c[i] = a[i] + b[i];
}
