// Faulty vadd: a loop that forgets to advance its index, so it never ends.
// expect: correct=timeout
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  int i = get_global_id(0);
  while (i < count) {
    c[i] = a[i] + b[i];
  }
}
