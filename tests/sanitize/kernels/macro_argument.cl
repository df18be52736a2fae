// A helper called with a macro as its first argument (`#define SRC in`): the helper reads one
// element to the right, past the end of `in` for the last work-item.
#define SRC in

float right_of(global const float* p, int i) {
  return p[i + 1];
}

kernel void shift(global const float* in, global float* out) {
  int i = get_global_id(0);
  out[i] = right_of(SRC, i);
}
