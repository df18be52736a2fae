// Hostile vadd: a million lines of printf from its first work-item, then the right answer.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  const size_t i = get_global_id(0);
  if (i == 0)
    for (int k = 0; k < 1000000; ++k) printf("line %d\n", k);
  if (i < count) c[i] = a[i] + b[i];
}
