// Faulty vadd: the first work-item past the end writes the 4 bytes 0xC3C3C3C3 at c[count], right
// after the buffer: the byte pattern a fixed guard zone used to hold, so a fixed pattern would
// not see it. Guard zones draw their pattern at random for every case: it loses `clean`
// (out_of_bounds), reported at byte 0 past the end of c.
// expect: clean=out_of_bounds
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  int i = get_global_id(0);
  if (i < count) c[i] = a[i] + b[i];
  if (i == count) c[i] = as_float(0xC3C3C3C3u);
}
