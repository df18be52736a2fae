// Async copies between __global and __local memory, one fault per kernel (the last is correct).
// stage_shifted: each group stages the slice that starts half a group further on, so the last
// group's copy reads past the end of `in`.
__kernel void stage_shifted(__global const float* in, __global float* out) {
  __local float row[64];
  int l = get_local_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(row, in + get_group_id(0) * n + n / 2, n, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = row[l];
}
// stage_half: the copy fills only the first half of `row`; work-items of the second half read
// __local words nobody wrote.
__kernel void stage_half(__global const float* in, __global float* out) {
  __local float row[64];
  int l = get_local_id(0), n = get_local_size(0);
  event_t e = async_work_group_copy(row, in + get_group_id(0) * n, n / 2, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = row[l];
}
// scatter_columns: a group's row goes to column g of `out` with a strided copy; the stride is one
// too many, so the copy writes past the end of `out`.
__kernel void scatter_columns(__global const float* in, __global float* out) {
  __local float row[64];
  int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
  row[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_strided_copy(out + g, row, n, get_num_groups(0) + 1, 0);
  wait_group_events(1, &e);
}
// stage_next: each group writes its own slice of `a`, then copies the next group's slice: nothing
// orders the work-groups, so the copy's reads race with the other group's writes.
__kernel void stage_next(__global float* a, __global float* out) {
  __local float row[64];
  int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
  a[get_global_id(0)] = (float)l;
  event_t e = async_work_group_copy(row, a + ((g + 1) % get_num_groups(0)) * n, n, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = row[l];
}
// transpose_columns: column g of `in` (a row per work-item) into __local memory with a strided
// copy, then back into row g of `out`: correct.
__kernel void transpose_columns(__global const float* in, __global float* out) {
  __local float column[64];
  int n = get_local_size(0), g = get_group_id(0), groups = get_num_groups(0);
  event_t e = async_work_group_strided_copy(column, in + g, n, groups, 0);
  wait_group_events(1, &e);
  column[get_local_id(0)] *= 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(out + g * n, column, n, 0);
  wait_group_events(1, &e);
}
