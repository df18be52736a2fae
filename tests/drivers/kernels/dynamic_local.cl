// Launch-shape test kernel with a __local pointer argument sized per launch (tmp_n ints); work-items
// past tmp_n leave the scratch alone, so any local size is safe.
size_t lin(void) {
  size_t i = 0, stride = 1;
  for (uint d = 0; d < get_work_dim(); ++d) {
    i += (get_global_id(d) - get_global_offset(d)) * stride;
    stride *= get_global_size(d);
  }
  return i;
}

size_t local_lin(void) {
  return get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
}

__kernel void dynamic_local(__global int* out, __local int* tmp, uint tmp_n) {
  size_t l = local_lin();
  if (l < tmp_n) tmp[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[lin()] = l < tmp_n ? tmp[l] : -1;
}
