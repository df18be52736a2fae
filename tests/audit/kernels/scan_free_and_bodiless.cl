// Kernels scan used to refuse or fail on (issue 27): a kernel for any grid size, a call of a
// function declared without a body, and vectors of three elements.

// Correct for any number of work-groups: each work-group writes its own slot.
__kernel void per_group(__global int* out) {
  if (get_local_id(0) == 0) out[get_group_id(0)] = (int)get_num_groups(0);
}

// A race that needs three work-groups or more: group 2 writes group 0's slot.
__kernel void third_group_collides(__global int* out) {
  const size_t g = get_group_id(0);
  if (get_local_id(0) == 0) out[g == 2 ? 0 : g] = (int)g;
}

float* arbitrary(float* p);

// Calls a function declared without a body: no OpenCL driver links the program.
__kernel void calls_bodiless(__global float* out) {
  float x = 0;
  float* y = arbitrary(&x);
  out[get_global_id(0)] = y[0];
}

// Three-element vectors in buffers, by value and through vload3/vstore3.
__kernel void vectors3(__global int3* a, __global float* b, int3 v) {
  const size_t i = get_global_id(0);
  a[i] = a[i] + v;
  vstore3(vload3(i, b) * 2.0f, i, b);
}

void record(int, __global float*);
int3 pick(const int, uint);

// Bodiless functions with unnamed parameters, a void one and a vector result: with
// --stub-bodiless each returns zero and the kernel is correct.
__kernel void calls_unnamed(__global float* out) {
  const int3 v = pick(1, 2u);
  record(v.x, out);
  out[get_global_id(0)] = (float)(v.x + v.y + v.z);
}
