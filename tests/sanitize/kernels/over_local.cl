// A work-group's sum through a 16 MiB __local table, more __local memory than any device has: the
// launch is one the device must refuse (CL_OUT_OF_RESOURCES), whatever the instrumentation.
kernel void huge_table(global int* out) {
  __local int table[4 * 1024 * 1024];
  int l = get_local_id(0);
  table[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = table[(l + 1) % get_local_size(0)];
}
