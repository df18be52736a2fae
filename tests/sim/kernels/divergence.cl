// Only half of each work-group reaches the barrier: barrier divergence.
__kernel void half_barrier(__global int* out) {
  const size_t lid = get_local_id(0);
  if (lid < get_local_size(0) / 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = (int)lid;
}
