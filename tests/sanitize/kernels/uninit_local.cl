// Only the first 32 work-items of a group fill the __local buffer; every work-item reads its own
// slot after the barrier, so items 32 and up read __local memory nobody wrote.
__kernel void half_filled(__global const float* in, __global float* out) {
  __local float buf[128];
  int l = get_local_id(0);
  if (l < 32) buf[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[l];
}
