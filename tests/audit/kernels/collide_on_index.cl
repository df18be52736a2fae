// Two work-items collide only for some values of k: work-item 0 writes out[k], which work-item k
// writes too when 0 < k < the global size. scan's default (k = the global size) misses it.
__kernel void mark(__global const float* in, __global float* out, const int k) {
  const int i = get_global_id(0);
  if (i == 0)
    out[k] = -1.0f;
  else
    out[i] = in[i];
}
