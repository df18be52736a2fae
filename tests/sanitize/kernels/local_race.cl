// Adds each work-item's right neighbour in the group to its own value, in __local memory. The
// barrier between the update and the neighbour's read is missing: a read-write race.
__kernel void add_neighbour(__global const int* in, __global int* out) {
  __local int tile[256];
  int l = get_local_id(0), n = get_local_size(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[l] = tile[l] * 2;
  out[get_global_id(0)] = tile[(l + 1) % n];
}
