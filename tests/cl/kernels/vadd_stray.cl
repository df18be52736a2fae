// Test fixture: a correct vadd whose work-item 0 also writes 42 to one element of buffer `which`
// (0: a, 1: b, 2: c) at index `at`, which may lie outside it: what guard zones must catch.
__kernel void vadd(__global float* a, __global float* b, __global float* c,
                   const unsigned int count, const int which, const int at) {
  int i = get_global_id(0);
  if (i < count) c[i] = a[i] + b[i];
  if (i == 0) {
    __global float* target = which == 0 ? a : which == 1 ? b : c;
    target[at] = 42.0f;
  }
}
