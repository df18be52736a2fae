// Barriers whose work-items pass different flags (issue 40): OpenCL C wants the same flags from
// every work-item of a group, so both kernels have that fault; the second also has a race that the
// first work-item's flags hide from Oclgrind's own detector.

// Work-item 0 writes the slot and fences __local memory; work-item 1 reads it after the barrier.
kernel void fenced_writer(global int* out) {
  local int slot;
  const int l = get_local_id(0);
  volatile uint flags = l == 0 ? CLK_LOCAL_MEM_FENCE : 0;
  if (l == 0) slot = 7;
  barrier(flags);
  if (l == 1) out[0] = slot;
}

// Every work-item reads the slot; only work-item 0 fences __local memory; work-item 3 then writes
// the slot: the other readers' reads are not ordered before that write.
kernel void unfenced_readers(global int* out) {
  local int slot;
  const int l = get_local_id(0);
  if (l == 0) slot = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  volatile uint flags = l == 0 ? CLK_LOCAL_MEM_FENCE : 0;
  out[get_global_id(0)] = slot;
  barrier(flags);
  if (l == 3) slot = 5;
}
