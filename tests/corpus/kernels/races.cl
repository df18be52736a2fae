// Data races for the own corpus: pairs of work-items store into one global slot (write-write
// race), a work-item reads a local slot its neighbour writes with no barrier between (read-write
// race), and every work-item reads one shared value (read-read: correct).

__kernel void pairs_share_a_slot(__global int* out) {
  size_t i = get_global_id(0);
  out[i / 2] = (int)i;
}

__kernel void read_neighbour_early(__global const int* in, __global int* out, __local int* row) {
  size_t me = get_local_id(0);
  row[me] = in[get_global_id(0)];
  out[get_global_id(0)] = row[(me + 1) % get_local_size(0)];
}

__kernel void everyone_reads_the_first(__global const int* in, __global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[0] + in[i];
}
