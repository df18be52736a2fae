// Faulty pi: work-item 0 adds up local_sums without waiting for the others to store theirs. Its
// sums are wrong on PoCL; on NVIDIA's GPUs they came out right (the race's effect depends on the
// schedule), so `correct` may be kept there: the race is the simulator's to find.
// expect: correct=wrong_result? clean=race
__kernel void pi(const int niters, const float step_size, __local float* local_sums,
                 __global float* partial_sums) {
  int w = get_local_id(0);
  int L = get_local_size(0);
  int first = (get_group_id(0) * L + w) * niters;
  float sum = 0.0f;
  for (int i = first; i < first + niters; i++) {
    float x = (i + 0.5f) * step_size;
    sum += 4.0f / (1.0f + x * x);
  }
  local_sums[w] = sum;
  if (w == 0) {
    float total = 0.0f;
    for (int k = 0; k < L; k++) total += local_sums[k];
    partial_sums[get_group_id(0)] = total;
  }
}
