// Each element plus its right neighbour. The guard on the last element is skipped when n is a
// multiple of 128 (a wrong "fast path"): work-item n-1 then reads a[n], one past the end.
__kernel void neighbour_sum(__global const float* a, __global float* out, int n) {
  int i = get_global_id(0);
  float right = 0.0f;
  if (n % 128 == 0)
    right = a[i + 1];
  else if (i + 1 < n)
    right = a[i + 1];
  out[i] = a[i] + right;
}
