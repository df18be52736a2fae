// Faulty vadd: `<=` instead of `<`, so work-item `count` reads and writes one element past the
// end of each vector; every element of c is still right.
// expect: clean=out_of_bounds
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  int i = get_global_id(0);
  if (i <= count) c[i] = a[i] + b[i];
}
