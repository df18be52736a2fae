// Async copies in flight (issue 27): one kernel per case of the simulator's async-copy tracking.
// Each work-group copies its 16 floats of `in` into a __local tile.

// A race: the tile is read before wait_group_events covers the copy into it.
kernel void read_before_wait(global const float* in, global float* out) {
  local float tile[16];
  event_t e = async_work_group_copy(tile, in + 16 * get_group_id(0), 16, 0);
  float x = tile[get_local_id(0)];
  wait_group_events(1, &e);
  out[get_global_id(0)] = x;
}

// A race: a work-item writes the copy's source while the copy may still be reading it.
kernel void write_to_source(global float* in, global float* out) {
  local float tile[16];
  event_t e = async_work_group_copy(tile, in + 16 * get_group_id(0), 16, 0);
  in[get_global_id(0)] = 0.0f;
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0)];
}

// No wait_group_events at all: the copy is still in flight when the work-group ends.
kernel void missing_wait(global const float* in, global float* out) {
  local float tile[16];
  event_t e = async_work_group_copy(tile, in + 16 * get_group_id(0), 16, 0);
  out[get_global_id(0)] = 1.0f;
}

// Correct: the wait completes the copy before any work-item reads the tile, and the barrier at
// the end of each step keeps the next copy from overwriting a tile still being read.
kernel void correct_wait(global const float* in, global float* out) {
  local float tile[16];
  float sum = 0.0f;
  for (int step = 0; step < 2; ++step) {
    event_t e = async_work_group_copy(tile, in + 16 * get_group_id(0), 16, 0);
    wait_group_events(1, &e);
    sum += tile[(get_local_id(0) + step) % 16];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = sum;
}

// A race: without the barrier at the end of each step, the next step's copy overwrites the tile
// while other work-items still read the previous one.
kernel void reuse_without_barrier(global const float* in, global float* out) {
  local float tile[16];
  float sum = 0.0f;
  for (int step = 0; step < 2; ++step) {
    event_t e = async_work_group_copy(tile, in + 16 * step, 16, 0);
    wait_group_events(1, &e);
    sum += tile[15 - get_local_id(0)];
  }
  out[get_global_id(0)] = sum;
}

// A race between two copies: the second starts before a wait covers the first, into the same
// bytes.
kernel void two_copies_one_destination(global const float* in, global float* out) {
  local float tile[16];
  event_t e = async_work_group_copy(tile, in, 16, 0);
  e = async_work_group_copy(tile, in + 16, 16, e);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[get_local_id(0)];
}

// A divergence: only the first half of each work-group reaches the copy (every work-item must,
// with the same arguments).
kernel void copy_reached_by_half(global const float* in, global float* out) {
  local float tile[16];
  if (get_local_id(0) < 8) {
    event_t e = async_work_group_copy(tile, in + 16 * get_group_id(0), 16, 0);
  }
  out[get_global_id(0)] = 1.0f;
}

// A divergence: every work-item reaches the copy, but joins it to another event than the others
// (which wait completes it is then undefined).
kernel void copy_with_different_events(global const float* in, global float* out) {
  local float a[16], b[16], c[16];
  event_t ea = async_work_group_copy(a, in, 16, 0);
  event_t eb = async_work_group_copy(b, in + 16, 16, 0);
  event_t* joined = get_local_id(0) < 4 ? &ea : &eb;
  event_t ec = async_work_group_copy(c, in + 32, 16, *joined);
  wait_group_events(1, &ea);
  wait_group_events(1, &eb);
  out[get_global_id(0)] = 1.0f;
}
