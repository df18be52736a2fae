// Issue 18's case: a 25-element __local array written at the global id by 64 work-items, beside a
// second __local array in the same work-group. Every write past L[24] is out of bounds of L; the
// finding names L and the line declaring it.
__kernel void in_block(__global int* out) {
  __local int L[25];
  __local int M[64];
  const int g = get_global_id(0);
  M[get_local_id(0)] = g;
  L[g] = get_global_size(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = M[get_local_id(0)];
}
