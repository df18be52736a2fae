// Each work-item stores a float4 into __local memory with vstore4 and loads its right neighbour's
// with vload4, with no barrier between: a race on __local memory between the vstore and the vload.
__kernel void neighbour_vectors(__global const float* in, __global float* out) {
  __local float tile[256];
  int l = get_local_id(0), n = get_local_size(0);
  vstore4(vload4(get_global_id(0), in), l, tile);
  float4 right = vload4((l + 1) % n, tile);
  vstore4(right, get_global_id(0), out);
}
