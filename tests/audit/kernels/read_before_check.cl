// A read before its bounds check: a[i] is read for every work-item, then used only when i < n.
// The optimiser sinks the read under the guard; the kernel as written reads past the buffer.
__kernel void copy_guarded(__global const float* a, __global float* c, const int n) {
  const int i = get_global_id(0);
  float x = a[i];
  if (i < n) c[i] = x;
}
