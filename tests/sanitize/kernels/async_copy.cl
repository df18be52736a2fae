// Stages a group's slice of `in` into __local memory with an async copy, waits, then each
// work-item writes the reversed slice: correct.
__kernel void reverse_slices(__global const float* in, __global float* out) {
  __local float slice[64];
  int l = get_local_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(slice, in + get_group_id(0) * n, n, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = slice[n - 1 - l];
}
