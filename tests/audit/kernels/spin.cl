// Each work-item spins n times: a finite, known amount of the simulator's time.
__kernel void spin(__global int* out, int n) {
  int acc = 0;
  for (int i = 0; i < n; ++i) acc += i ^ (int)get_global_id(0);
  out[get_global_id(0)] = acc;
}

// A loop with no effect: the simulator runs n iterations of each work-item as written, none once
// the compiler has removed it.
__kernel void idle(__global int* out, int n) {
  for (int i = 0; i < n; ++i) {
  }
  out[get_global_id(0)] = 1;
}
