// Faulty pi: while work-item 0 adds up local_sums it also reads the element after the current one
// (`k + 1`), which at the last step is one past the end of the __local array. The value is never
// used, so every result is right on every device, but the simulator sees the read outside local
// memory: it loses `clean` (out_of_bounds), with the hint for a local-memory off-by-one, not the
// one for a global size rounded up past the data.
// expect: clean=out_of_bounds
__kernel void pi(const int niters, const float step_size, __local float* local_sums,
                 __global float* partial_sums) {
  const int w = get_local_id(0);
  const int L = get_local_size(0);
  const int first = (get_group_id(0) * L + w) * niters;
  float sum = 0.0f;
  for (int i = first; i < first + niters; ++i) {
    const float x = ((float)i + 0.5f) * step_size;
    sum += 4.0f / (1.0f + x * x);
  }
  local_sums[w] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (w == 0) {
    float total = 0.0f;
    for (int k = 0; k < L; ++k) {
      const float next = local_sums[k + 1];
      total += local_sums[k];
    }
    partial_sums[get_group_id(0)] = total;
  }
}
