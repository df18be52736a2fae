// Uninitialized values for the own corpus: a private variable set on one path only, a local array
// half filled and then read in full, a buffer the host never wrote, and a local array filled by
// every work-item before the barrier (correct).

__kernel void set_on_one_path(__global const int* in, __global int* out) {
  int result;
  if (in[get_global_id(0)] > 1000) {
    result = 1;
  }
  out[get_global_id(0)] = result;
}

__kernel void half_filled_local(__global int* out) {
  __local int shared[16];
  size_t me = get_local_id(0);
  if (me % 2 == 0) {
    shared[me] = (int)me;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = shared[me];
}

__kernel void sum_in_place(__global const int* in, __global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;
}

__kernel void fully_filled_local(__global int* out) {
  __local int shared[16];
  size_t me = get_local_id(0);
  shared[me] = (int)(me * 3);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = shared[15 - me];
}
