// Each work-item spins n times: a finite, known amount of the simulator's time.
__kernel void spin(__global int* out, int n) {
  int acc = 0;
  for (int i = 0; i < n; ++i) acc += i ^ (int)get_global_id(0);
  out[get_global_id(0)] = acc;
}
