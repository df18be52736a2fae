// The consumer example's kernel: out[i] = in[n - 1 - i]; work-items past n (the global size is n
// rounded up to the local size) write nothing.
__kernel void reverse(__global const int* in, __global int* out, const unsigned int n) {
  const size_t i = get_global_id(0);
  if (i < n) out[i] = in[n - 1 - i];
}
