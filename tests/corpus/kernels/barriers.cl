// Barriers for the own corpus: a group mirrors a local array around a barrier (correct), and only
// the lower half of the group reaches the barrier (divergence).

__kernel void mirror_in_group(__global const float* in, __global float* out,
                              __local float* scratch) {
  size_t me = get_local_id(0);
  size_t width = get_local_size(0);
  scratch[me] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[width - 1 - me];
}

__kernel void lower_half_waits(__global const float* in, __global float* out,
                               __local float* scratch) {
  size_t me = get_local_id(0);
  scratch[me] = in[get_global_id(0)];
  if (me < get_local_size(0) / 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = scratch[me];
}
