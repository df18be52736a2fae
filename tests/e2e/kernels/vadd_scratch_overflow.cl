// Test fixture: a vadd whose private scratch array overflows once n > 16 (work-item 0 writes
// scratch[k * n] for k < n, the last at n*(n-1), past 255 from n = 17 on), so the simulator's
// range (n <= 16) never sees it, while a real device runs the larger sizes; far past the array for
// large n, which spoils the process's stack.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int n) {
  float scratch[256];
  for (int k = 0; k < 256; ++k) scratch[k] = 0.0f;
  size_t i = get_global_id(0);
  if (i == 0)
    for (unsigned int k = 0; k < n; ++k) scratch[k * n] = (float)k;
  if (i < n) c[i] = a[i] + b[i] + 0.0f * scratch[i % 256];
}
