// Faulty vadd: a barrier inside the bounds check, which the work-items past `count` skip while the
// others of their group wait (PoCL then runs the guarded store for every work-item).
// expect: clean=divergence
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  int i = get_global_id(0);
  if (i < count) {
    c[i] = a[i] + b[i];
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}
