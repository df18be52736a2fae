// vadd that writes a few elements past the end of c: the work-items of the last work-group
// store to c[i + 3] as well, so indices count .. count + 2 lie outside the buffer.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  const int i = get_global_id(0);
  if (i < count) {
    c[i] = a[i] + b[i];
    if (i + 3 >= count) c[i + 3] = 0.0f;
  }
}
