// Memory checks for the own corpus: a private table indexed one past its end, a read past an
// input of the grid's length, a store through a NULL pointer, a store into a read-only buffer, and
// the same neighbour read kept inside the input (correct).

__kernel void lookup_past_table(__global int* out) {
  int weights[3] = {5, 7, 11};
  size_t i = get_global_id(0);
  out[i] = weights[i];
}

__kernel void next_value(__global const float* in, __global float* out, int n) {
  int i = get_global_id(0);
  out[i] = in[i + 1] - in[i];
}

__kernel void next_value_guarded(__global const float* in, __global float* out, int n) {
  int i = get_global_id(0);
  out[i] = i + 1 < n ? in[i + 1] - in[i] : 0.0f;
}

__kernel void store_through_null(__global int* nowhere, __global int* out) {
  nowhere[get_global_id(0)] = 1;
  out[get_global_id(0)] = 2;
}

__kernel void store_into_input(__global int* input, __global int* out) {
  size_t i = get_global_id(0);
  input[i] = out[i];
}
