// Wait events for the own corpus: two copies in flight waited for together (correct), and a wait
// that one work-item of the group skips (divergence).

#define HALF 8

__kernel void fetch_two_halves(__global const float* src, __global float* dst) {
  __local float lo[HALF];
  __local float hi[HALF];
  size_t base = get_group_id(0) * 2 * HALF;
  event_t pending[2];
  pending[0] = async_work_group_copy(lo, src + base, HALF, 0);
  pending[1] = async_work_group_copy(hi, src + base + HALF, HALF, 0);
  wait_group_events(2, pending);
  size_t me = get_local_id(0);
  dst[base + me] = lo[me] + hi[me];
}

__kernel void last_item_skips_wait(__global const float* src, __global float* dst) {
  __local float lo[HALF];
  size_t base = get_group_id(0) * HALF;
  event_t pending = async_work_group_copy(lo, src + base, HALF, 0);
  if (get_local_id(0) != HALF - 1) {
    wait_group_events(1, &pending);
  }
  dst[base + get_local_id(0)] = 1.0f;
}
