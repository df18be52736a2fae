// Faulty vadd: `result` has no initial value, and the kernel stores it into c[i] as a "default"
// before it stores the sum there. Every element of c ends up right on every device, but the
// simulator sees a value nobody set written to global memory: it loses `clean` (uninitialized),
// and the feedback points at the declaration of `result` (line 8) as well as the store (line 10).
// expect: clean=uninitialized
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  float result;
  if (get_global_id(0) < count) {
    c[get_global_id(0)] = result;
    result = a[get_global_id(0)] + b[get_global_id(0)];
    c[get_global_id(0)] = result;
  }
}
