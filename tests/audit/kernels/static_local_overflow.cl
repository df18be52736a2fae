// A static __local array indexed past its end: 8 work-items per group write L[0..7] of a 4-element
// array. The writes land inside the group's local memory block; only the kernel as written gives
// Oclgrind's "Index (4) exceeds static array size (4)".
__kernel void fill_tile(__global int* out) {
  __local int L[4];
  const int l = get_local_id(0);
  L[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = l;
}
