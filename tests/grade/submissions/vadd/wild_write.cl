// Faulty vadd: a store far outside c (a wrong pointer offset), which kills the process that runs
// it on a CPU driver and ends the launch with CL_OUT_OF_RESOURCES on NVIDIA's; the simulator
// reports the invalid write and goes on.
// expect: correct=crash|launch_error clean=out_of_bounds
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  int i = get_global_id(0);
  if (i < count) c[i + 0x10000000] = a[i] + b[i];
}
