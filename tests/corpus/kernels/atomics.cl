// Atomics for the own corpus: a histogram of signs built with atomic_inc (correct), and a counter
// one work-item resets with a plain store while the others add to it atomically (race).

__kernel void sign_histogram(__global const int* values, __global int* bins) {
  int v = values[get_global_id(0)];
  int bin = v < 0 ? 0 : (v == 0 ? 1 : 2);
  atomic_inc(&bins[bin]);
}

__kernel void reset_while_adding(__global const int* values, __global int* total) {
  size_t i = get_global_id(0);
  if (i == 5) {
    total[0] = 0;
  } else {
    atomic_add(total, values[i]);
  }
}

__kernel void largest_seen(__global const int* values, __global int* best) {
  atomic_max(best, values[get_global_id(0)]);
}
