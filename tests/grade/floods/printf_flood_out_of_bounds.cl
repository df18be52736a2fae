// vadd without a bounds check (the work-items past `count` read a and b outside the vectors: the
// simulator's out-of-bounds finding, 70/100 alone) that also floods the output as printf_flood.cl
// does, so that the simulator never reaches the bad read. The flood must not hide it: the timeout
// is charged, and the simulator's item, which the simulator never judged, earns nothing: the
// sanitizer's run on the real device (where printf is fast) finds the read past the end and fails
// it (before the sanitizer judged it, it was blocked by `correct`).
// expect: correct=timeout clean=out_of_bounds
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  const size_t i = get_global_id(0);
  const float sum = a[i] + b[i];
  if (i < count) {
    c[i] = sum;
  }
  printf("%2147483647d\n", (int)i);
}
