// Faulty vadd: no bounds check, so the work-items past `count` (the global size is rounded up to
// the local size) read a and b and write c outside the vectors.
// expect: clean=out_of_bounds
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  int i = get_global_id(0);
  c[i] = a[i] + b[i];
}
