// vadd with a barrier that orders nothing: each work-item reads and writes only its own
// elements, so the audit must find the barrier redundant.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  const int i = get_global_id(0);
  float sum = 0.0f;
  if (i < count) sum = a[i] + b[i];
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (i < count) c[i] = sum;
}
