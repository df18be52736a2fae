// Hostile vadd: a 64 MiB __local array, far over any device's local memory.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  const size_t i = get_global_id(0);
  __local float tile[16777216];
  tile[get_local_id(0)] = i < count ? a[i] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < count) c[i] = tile[get_local_id(0)] + b[i];
}
