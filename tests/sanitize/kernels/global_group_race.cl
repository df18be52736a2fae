// Work-items of one group sharing __global memory: each writes its element of `a`, then reads its
// right neighbour's in the group. Only a barrier with CLK_GLOBAL_MEM_FENCE orders the two.
__kernel void neighbour_no_barrier(__global float* a, __global float* out) {
  int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  a[g] = 2.0f * g;
  out[g] = a[g - l + (l + 1) % n];
}

__kernel void neighbour_global_fence(__global float* a, __global float* out) {
  int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  a[g] = 2.0f * g;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[g] = a[g - l + (l + 1) % n];
}

// The local fence orders __local memory only: the neighbour's write to `a` is not ordered.
__kernel void neighbour_local_fence(__global float* a, __global float* out) {
  int g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  a[g] = 2.0f * g;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = a[g - l + (l + 1) % n];
}

// Correct: each work-item reads and writes only its own element (twice, in two barrier
// intervals), and every work-item of every group reads a[n], which nobody writes.
__kernel void own_elements(__global float* a) {
  int g = get_global_id(0), n = get_global_size(0);
  a[g] = a[g] * 2.0f + a[n];
  barrier(CLK_LOCAL_MEM_FENCE);
  a[g] += 1.0f;
}

// Correct: every work-item of a group adds to its group's counter and to the total atomically.
__kernel void count_atomically(__global const float* x, __global int* counts) {
  if (x[get_global_id(0)] > 0.0f) {
    atomic_inc(&counts[1 + get_group_id(0)]);
    atomic_add(&counts[0], 1);
  }
}
