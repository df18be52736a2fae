// Faulty vadd: the output comes first, (c, a, b, count) instead of (a, b, c, count). The kernel
// launches, but its 'c' receives the assignment's input a, so the real output is never written.
// It loses `correct` (unwritten); the feedback says first that the parameters are in another
// order, and names the buffers by this kernel's own parameter names.
// expect: correct=unwritten
__kernel void vadd(__global float* c, __global const float* a, __global const float* b,
                   const unsigned int count) {
  int i = get_global_id(0);
  if (i < count) c[i] = a[i] + b[i];
}
