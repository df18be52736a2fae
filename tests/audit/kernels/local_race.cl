// A racy kernel for `clharness scan`: each work-item writes its own slot of a local array and
// then, with no barrier in between, reads its neighbour's (a local-memory read-write race).
__kernel void neighbour_sum(__global const float* in, __global float* out, __local float* tile,
                            const int n) {
  const int g = get_global_id(0);
  const int l = get_local_id(0);
  const int size = get_local_size(0);
  tile[l] = g < n ? in[g] : 0.0f;
  const float right = tile[(l + 1) % size];
  if (g < n) out[g] = tile[l] + right;
}
