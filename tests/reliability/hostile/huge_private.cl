// Hostile vadd: a 64 MiB private array per work-item.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  const size_t i = get_global_id(0);
  float scratch[16777216];
  scratch[i % 16777216] = a[i < count ? i : 0];
  if (i < count) c[i] = scratch[i % 16777216] + b[i];
}
