// Test fixture: vadd whose every work-item also writes a terabyte past its output: kills a CPU
// driver's process in every launch that runs, whatever its offset or local size.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  int i = get_global_id(0);
  if (i < count) c[i] = a[i] + b[i];
  c[(1UL << 40) / sizeof(float)] = 1.0f;
}
