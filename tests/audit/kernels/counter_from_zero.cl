// Every work-item but one takes a slot from a counter; the one left out writes slot 3, taking it
// for free. Slot 3 is taken too when the counter starts at 3 or below (as counters do, at 0), so
// two work-items write it with no barrier: a race that needs the counter's first value.
__kernel void take(__global uint* counter, __global float* slots) {
  uint slot = 3;
  if (get_global_id(0) != 5) slot = atomic_inc(counter);
  slots[slot] = get_global_id(0);
}
