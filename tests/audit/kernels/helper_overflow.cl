// A __local tile overflowed through a helper's pointer: the helper only sees a pointer, so the
// finding names no array, but it is still an out-of-bounds write at the helper's line.
void put(__local int* row, int i) {
  row[i] = i;
}

__kernel void through_helper(__global int* out) {
  __local int tile[8];
  const int l = get_local_id(0);
  put(tile, l + 4);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[l % 4];
}
