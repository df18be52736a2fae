// Launch-shape test kernel: one int per work-item at its linear index counted from the global
// offset, so a buffer of the product of the global sizes fits every shape, offsets included.
size_t lin(void) {
  size_t i = 0, stride = 1;
  for (uint d = 0; d < get_work_dim(); ++d) {
    i += (get_global_id(d) - get_global_offset(d)) * stride;
    stride *= get_global_size(d);
  }
  return i;
}

__kernel void index_writer(__global int* out) { out[lin()] = (int)lin(); }
