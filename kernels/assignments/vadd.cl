// Reference solution of the vadd assignment (Hands-On OpenCL, Exercise 2): c = a + b element by
// element. The host rounds the global size up to a multiple of the local size, so the work-items
// past `count` must not touch the vectors.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  const size_t i = get_global_id(0);
  if (i < count) {
    c[i] = a[i] + b[i];
  }
}
