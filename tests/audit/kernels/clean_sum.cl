// A correct kernel for `clharness scan`: the same neighbour sum as local_race.cl with the
// barrier that orders the local writes before the reads.
__kernel void neighbour_sum(__global const float* in, __global float* out, __local float* tile,
                            const int n) {
  const int g = get_global_id(0);
  const int l = get_local_id(0);
  const int size = get_local_size(0);
  tile[l] = g < n ? in[g] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  const float right = tile[(l + 1) % size];
  if (g < n) out[g] = tile[l] + right;
}
