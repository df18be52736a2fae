// Fixture kernel for tests/core: specs name it; the core tests never build it.
__kernel void copy(__global const float* a, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i];
}

__kernel void fill(__global float* out) { out[get_global_id(0)] = 1.0f; }
