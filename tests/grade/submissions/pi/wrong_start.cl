// Faulty pi: each work-item starts at its global id instead of global id * niters, so the
// work-items' steps overlap.
// expect: correct=wrong_result
__kernel void pi(const int niters, const float step_size, __local float* local_sums,
                 __global float* partial_sums) {
  int w = get_local_id(0);
  int L = get_local_size(0);
  int first = get_global_id(0);
  float sum = 0.0f;
  for (int i = first; i < first + niters; i++) {
    float x = (i + 0.5f) * step_size;
    sum += 4.0f / (1.0f + x * x);
  }
  local_sums[w] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (w == 0) {
    float total = 0.0f;
    for (int k = 0; k < L; k++) total += local_sums[k];
    partial_sums[get_group_id(0)] = total;
  }
}
