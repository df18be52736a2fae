// Every work-item of a group writes its own id to the same local slot: a local write-write race.
__kernel void last_writer(__global int* out, __local int* slot) {
  const int lid = get_local_id(0);
  slot[0] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = slot[0];
}
