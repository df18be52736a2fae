// Counts the positive elements: a __local counter set by one work-item, incremented atomically by
// every work-item, added atomically to the global count by one: correct (atomics do not race).
__kernel void count_positive(__global const float* x, __global int* count) {
  __local int group_count;
  if (get_local_id(0) == 0) group_count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (x[get_global_id(0)] > 0.0f) atomic_inc(&group_count);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) atomic_add(&count[0], group_count);
}
