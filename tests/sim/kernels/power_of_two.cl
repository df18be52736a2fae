// Correct kernel marking which inputs are powers of two; Oclgrind 21.10's optimiser turns the test
// into llvm.ctpop.i32, which its interpreter lacks ("Undefined external function").
__kernel void is_pow2(__global const int* in, __global int* out) {
  const size_t gid = get_global_id(0);
  const int n = in[gid];
  out[gid] = (n > 0 && (n & (n - 1)) == 0) ? 1 : 0;
}
