// c = a + b, with a wrong "fast path": when count is a multiple of 128 every work-item also reads
// its right neighbour of a, so the last one reads a[count], one past the end. The value read is
// never used, so the results are right at every size: only a sanitized run at such a size sees it.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  const size_t i = get_global_id(0);
  if (i >= count) return;
  float ahead = 0.0f;
  if (count % 128 == 0)
    ahead = a[i + 1];
  c[i] = a[i] + b[i] + (ahead == ahead ? 0.0f : 0.0f);
}
