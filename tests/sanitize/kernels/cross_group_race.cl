// Work-group 0 zeroes a row that every work-group then reads, in the same launch: nothing orders
// work-groups, so the other groups' reads race with group 0's writes (a read-write race across
// work-groups on __global memory, whatever values the device happens to give).
__kernel void zero_then_read(__global float* a, __global float* out) {
  int l = get_local_id(0);
  if (get_group_id(0) == 0) a[l] = 0.0f;
  out[get_global_id(0)] = a[l];
}
