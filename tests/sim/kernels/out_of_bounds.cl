// Each work-item writes one element past its own: the last one writes past the end of `out`.
__kernel void shift_write(__global float* out) {
  const size_t gid = get_global_id(0);
  out[gid + 1] = (float)gid;
}
