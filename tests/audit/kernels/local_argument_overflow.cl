// Each work-item writes one element past its own in a __local buffer the host sizes: the last
// work-item of a group writes past the end of `scratch`. On the unoptimised build the kernel reads
// the parameter back from its stack slot before each use; the finding still names it.
__kernel void shift(__global int* out, __local int* scratch) {
  const int l = get_local_id(0);
  scratch[l + 1] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[l];
}
