// A helper stores into __local memory and another reads a neighbour's slot; the kernel calls both
// with no barrier between: a read-write race on __local memory made inside helper functions.
void put(__local float* t, int i, float v) {
  t[i] = v;
}
float neighbour(__local const float* t, int i, int n) {
  return t[(i + 1) % n];
}
__kernel void shift_left(__global const float* in, __global float* out) {
  __local float tile[64];
  int l = get_local_id(0), n = get_local_size(0);
  put(tile, l, in[get_global_id(0)]);
  out[get_global_id(0)] = neighbour(tile, l, n);
}
