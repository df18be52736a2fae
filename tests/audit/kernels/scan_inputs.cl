// Kernels whose arguments scan used to refuse or could not set up (issue 18): a struct by value
// and behind a pointer, a vector by value, a pointer that may be NULL, an input never written,
// and a 3-D kernel launched in non-uniform work-groups.
typedef struct {
  int index;
  float scale;
} Params;

__kernel void struct_index(__global float* out, Params p, __global const Params* all) {
  if (get_global_id(0) == 0) out[p.index] = p.scale + all[1].scale;
}

__kernel void vector_index(__global int* out, int4 v) {
  if (get_global_id(0) == 0) out[v.w] = v.x;
}

__kernel void read_first(__global const int* p, __global int* out) {
  out[get_global_id(0)] = p[0];
}

__kernel void copy(__global const int* in, __global int* out) {
  const size_t i = get_global_id(0);
  out[i] = in[i];
}

__kernel void ids3d(__global int* out) {
  const size_t i = get_global_id(0) + 3 * (get_global_id(1) + 3 * get_global_id(2));
  out[i] = (int)get_local_size(0);
}
