// Work-group 0 races on a __local int (every work-item stores its own id before the barrier),
// then work-group 1 never finishes: the simulator reports the race at the barrier, long before
// the time limit stops the scan.
__kernel void race_then_hang(__global int* out) {
  __local int shared;
  shared = get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_group_id(0) == 1)
    while (out[0] != -1) out[1] = shared;
  out[get_global_id(0)] = shared;
}
