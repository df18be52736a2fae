// A write-write race on a __local variable nobody reads: every work-item of a group stores its
// own id to `a`. Oclgrind's optimised build (-Oz) deletes the store, so only the kernel as written
// (-cl-opt-disable) shows the race.
__kernel void last_id(__global int* out) {
  __local int a;
  a = get_local_id(0);
  out[get_global_id(0)] = 1;
}
