// Reference solution of the pi assignment (Hands-On OpenCL, Exercise 9): the midpoint rule for
// the integral of 4 / (1 + x^2) over [0, 1]. Work-item w of group g sums `niters` consecutive
// steps starting at (g * L + w) * niters; the group's sums meet in local memory and work-item 0
// stores their total in partial_sums[g]. The host adds the groups and multiplies by step_size.
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
      total += local_sums[k];
    }
    partial_sums[get_group_id(0)] = total;
  }
}
