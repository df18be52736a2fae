// A NULL dereference that needs a scalar of 0: with use_input == 0 the kernel reads through a
// NULL pointer. scan's default for an int is the global size, so only its exploration of 0 finds it.
__kernel void pick(__global const int* in, __global int* out, const int use_input) {
  __global const int* p;
  if (use_input)
    p = in;
  else
    p = 0;
  const int i = get_global_id(0);
  out[i] = p[i];
}
