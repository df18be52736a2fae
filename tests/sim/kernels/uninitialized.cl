// Reads local memory that no work-item wrote, and stores it: an uninitialized read.
__kernel void read_unset(__global float* out, __local float* scratch) {
  const size_t lid = get_local_id(0);
  float v = scratch[lid];
  out[get_global_id(0)] = v > 0.0f ? v : -v;
}
