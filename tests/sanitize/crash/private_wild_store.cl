// Test fixture: vadd that also stores through a private pointer made from an address nothing owns,
// which kills a CPU driver's process. The sanitizer routes only __global and __local accesses, so
// the instrumented kernel dies the same way: the crash is the kernel's, sanitized or not.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  const int i = get_global_id(0);
  if (i < count) c[i] = a[i] + b[i];
  if (i == 0) {
    volatile __private int* wild = (volatile __private int*)(((size_t)1 << 44) + 64 * count);
    *wild = 1;
  }
}
