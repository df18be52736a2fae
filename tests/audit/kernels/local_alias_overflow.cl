// A pointer variable set once into a __local buffer the host sizes, ten elements in: the last ten
// work-items of a group write past the end of `p`. The finding names `p`, through the variable.
__kernel void alias(__global int* out, __local int* p) {
  __local int* shifted;
  shifted = p + 10;
  shifted[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = p[get_local_id(0)];
}
