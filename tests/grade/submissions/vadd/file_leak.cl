// Hostile vadd: includes a file of the grading machine, whose first line a build log would echo
// into the feedback. It is refused before any device builds it: no text of that file reaches the
// feedback, and it loses every item.
// expect: builds=build_error
#include "/etc/passwd"
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  int i = get_global_id(0);
  if (i < count) c[i] = a[i] + b[i];
}
