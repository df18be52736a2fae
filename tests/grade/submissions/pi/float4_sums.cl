// A correct pi submission that sums four steps at a time in float4 and the rest one by one.
// Oclgrind 21.10 dies (SIGSEGV) on such float4 code while PoCL runs it right: the simulator's
// failure is not the student's fault, so it costs nothing that PoCL judged; the simulator's item,
// which nobody else judges, is not assessed there (no points, a review), else it passes.
// expect: nothing clean=not_assessed?
__kernel void pi(const int niters, const float step_size, __local float* local_sums,
                 __global float* partial_sums) {
  int w = get_local_id(0);
  int L = get_local_size(0);
  int first = (get_group_id(0) * L + w) * niters;
  float4 acc = (float4)(0.0f);
  int i = 0;
  for (; i + 4 <= niters; i += 4) {
    float4 x = ((float4)((float)(first + i)) + (float4)(0.5f, 1.5f, 2.5f, 3.5f)) * step_size;
    acc += (float4)(4.0f) / ((float4)(1.0f) + x * x);
  }
  float sum = (acc.s0 + acc.s1) + (acc.s2 + acc.s3);
  for (; i < niters; i++) {
    float x = ((float)(first + i) + 0.5f) * step_size;
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
