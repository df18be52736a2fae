// Each work-item loads a float4 of `in`, doubles it and stores it at vector index i + 1 of `out`:
// `out` holds as many vectors as there are work-items, so the last work-item's vstore4 writes one
// vector past the end (elements n*4 .. n*4+3).
__kernel void shift_vectors(__global const float* in, __global float* out) {
  int i = get_global_id(0);
  float4 v = vload4(i, in);
  vstore4(v * 2.0f, i + 1, out);
}
