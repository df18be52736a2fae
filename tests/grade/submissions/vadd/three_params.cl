// Faulty vadd: three parameters instead of four (the count is missing), so the kernel cannot be
// launched the way the assignment launches it. It loses `correct` (launch_error); `clean` is not
// assessed (the simulator never ran it), so it earns nothing there either. The feedback says first
// that the parameter list differs from the assignment's.
// expect: correct=launch_error
__kernel void vadd(__global const float* a, __global const float* b, __global float* c) {
  int i = get_global_id(0);
  c[i] = a[i] + b[i];
}
