// A correct vadd whose work-items each print one number padded to 2147483647 characters: PoCL
// finishes, the simulator (which prints every character) runs past its limit, where the reference
// solution finished in a fraction of it. The flood is the kernel's own doing: a timeout.
// expect: correct=timeout
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  const size_t i = get_global_id(0);
  if (i < count) {
    c[i] = a[i] + b[i];
  }
  printf("%2147483647d\n", (int)i);
}
