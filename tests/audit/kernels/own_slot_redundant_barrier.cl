// vadd through __local memory where each work-item reads back only the slot it wrote itself: the
// barrier between the store and the load orders nothing, so the audit must find it redundant, on
// the simulator or with the sanitizer, which looks at __local races on a real device.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  __local float slot[64];
  const int i = get_global_id(0);
  const int l = get_local_id(0);
  slot[l] = i < count ? a[i] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < count) c[i] = slot[l] + b[i];
}
