// Launch-shape test kernel declaring reqd_work_group_size(4, 2, 1): only that local size (or, from
// OpenCL 2.0, a NULL one) may run.
size_t lin(void) {
  size_t i = 0, stride = 1;
  for (uint d = 0; d < get_work_dim(); ++d) {
    i += (get_global_id(d) - get_global_offset(d)) * stride;
    stride *= get_global_size(d);
  }
  return i;
}

__kernel __attribute__((reqd_work_group_size(4, 2, 1))) void required_size(__global int* out) {
  out[lin()] = (int)get_local_id(0);
}
