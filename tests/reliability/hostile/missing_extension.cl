// Hostile vadd: calls a vendor extension's built-in (cl_amd_media_ops) the device lacks.
#pragma OPENCL EXTENSION cl_amd_media_ops : enable
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  const size_t i = get_global_id(0);
  if (i < count) c[i] = as_float(amd_bitalign(as_uint(a[i]), as_uint(b[i]), 3u));
}
