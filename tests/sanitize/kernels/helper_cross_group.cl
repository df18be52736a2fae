// Work-group 0 zeroes a row through a helper function given the buffer, and every work-group reads
// the row in the same launch: a race across work-groups whose write names its buffer only at run
// time (the helper's pointer), so the sanitizer may take no buffer as never written.
void zero(__global float* p, int i) {
  p[i] = 0.0f;
}
__kernel void zero_via_helper(__global float* a, __global float* out) {
  int l = get_local_id(0);
  if (get_group_id(0) == 0) zero(a, l);
  out[get_global_id(0)] = a[l];
}
