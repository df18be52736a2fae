// Async copies for the own corpus: a tile fetched with async_work_group_copy and waited for
// (correct), read before its wait (race), reached by half the group (divergence), never waited
// for (missing wait).

#define TILE 8

__kernel void rotate_tile(__global const int* src, __global int* dst) {
  __local int tile[TILE];
  size_t base = get_group_id(0) * TILE;
  event_t fetched = async_work_group_copy(tile, src + base, TILE, 0);
  wait_group_events(1, &fetched);
  size_t me = get_local_id(0);
  dst[base + me] = tile[(me + 3) % TILE] * 2;
}

__kernel void peek_before_wait(__global const int* src, __global int* dst) {
  __local int tile[TILE];
  size_t base = get_group_id(0) * TILE;
  event_t fetched = async_work_group_copy(tile, src + base, TILE, 0);
  int early = tile[get_local_id(0)];
  wait_group_events(1, &fetched);
  dst[base + get_local_id(0)] = early;
}

__kernel void half_group_fetch(__global const int* src, __global int* dst) {
  __local int tile[TILE];
  size_t base = get_group_id(0) * TILE;
  event_t fetched = 0;
  if (get_local_id(0) < TILE / 2) {
    fetched = async_work_group_copy(tile, src + base, TILE, 0);
  }
  wait_group_events(1, &fetched);
  dst[base + get_local_id(0)] = tile[get_local_id(0)];
}

__kernel void fetch_and_forget(__global const int* src, __global int* dst) {
  __local int tile[TILE];
  size_t base = get_group_id(0) * TILE;
  async_work_group_copy(tile, src + base, TILE, 0);
  dst[base + get_local_id(0)] = (int)get_local_id(0);
}
