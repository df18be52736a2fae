// Every work-item stores a value read from never-written __local memory, `n` times at one
// statement: Oclgrind reports each store (64 work-items x 16 = 1024 reports of one problem).
__kernel void many(__global int* out, int n) {
  __local int never_written[64];
  for (int i = 0; i < n; ++i) out[get_global_id(0) * n + i] = never_written[get_local_id(0)];
}
