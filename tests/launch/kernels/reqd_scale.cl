// A kernel that declares reqd_work_group_size, for the launch family's tests: out = 2 * in, in
// work-groups of exactly 8 work-items.
__kernel __attribute__((reqd_work_group_size(8, 1, 1)))
void scale(__global const float* in, __global float* out) {
  const size_t i = get_global_id(0);
  out[i] = 2.0f * in[i];
}
