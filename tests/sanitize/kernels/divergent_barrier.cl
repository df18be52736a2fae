// Barrier divergence, two ways. sum_first_half: only the first 16 work-items of a group reach the
// barrier inside the `if`.
__kernel void sum_first_half(__global const float* in, __global float* out) {
  __local float tile[64];
  int l = get_local_id(0);
  tile[l] = in[get_global_id(0)];
  if (l < 16) {
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[l] + tile[l + 16];
  }
}
// reverse_prefix: work-items past `n` return before the barrier, so in the last work-group some
// reach it and the others do not (whenever n is not a multiple of the group's size).
__kernel void reverse_prefix(__global const float* in, __global float* out, int n) {
  __local float tile[64];
  int i = get_global_id(0), l = get_local_id(0), size = get_local_size(0);
  if (i >= n) return;
  tile[l] = in[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = tile[size - 1 - l];
}
// barriers_by_item: work-item l passes the barrier l % 4 times, so the group's work-items reach it
// a different number of times.
__kernel void barriers_by_item(__global const float* in, __global float* out) {
  int l = get_local_id(0);
  float acc = in[get_global_id(0)];
  for (int k = 0; k < l % 4; ++k) {
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += 1.0f;
  }
  out[get_global_id(0)] = acc;
}
