// Launch-shape test kernel with a static __local array of 64 ints (CL_KERNEL_LOCAL_MEM_SIZE > 0);
// work-items past 64 leave it alone.
size_t lin(void) {
  size_t i = 0, stride = 1;
  for (uint d = 0; d < get_work_dim(); ++d) {
    i += (get_global_id(d) - get_global_offset(d)) * stride;
    stride *= get_global_size(d);
  }
  return i;
}

__kernel void static_local(__global int* out) {
  __local int tile[64];
  size_t l = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
  if (l < 64) tile[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[lin()] = l < 64 ? tile[l] : -1;
}
