// The first work-item of every work-group writes its group id to out[0]: a write-write race on
// global memory between work-groups, which Oclgrind reports when the kernel ends.
__kernel void group_writer(__global int* out) {
  if (get_local_id(0) == 0) {
    out[0] = (int)get_group_id(0);
  }
}
