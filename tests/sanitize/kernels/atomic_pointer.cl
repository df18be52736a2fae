// A histogram of `n` bins: each work-item adds 1 to bin x[i] % (n + 1), through a pointer, so bin
// n (one past the end) is hit whenever x[i] % (n + 1) == n.
__kernel void histogram(__global const int* x, __global int* bins, int n) {
  int i = get_global_id(0);
  atomic_add(bins + (uint)x[i] % (uint)(n + 1), 1);
}
