// Every work-item stores its id into out[0] (a write-write race in each launch), then loops for
// as long as n is not the global size: scan's first launch (n = the global size, its default)
// finds the race and ends; a launch with another n never ends.
__kernel void race_then_loop(__global int* out, uint n) {
  out[0] = (int)get_global_id(0);
  while (n != get_global_size(0)) out[1 + get_global_id(0)] += 1;
}
