// A static private array indexed past its end: work-items 4..7 write p[4..7] of a 4-element array.
__kernel void private_table(__global int* out) {
  int p[4];
  const int i = get_global_id(0);
  p[i % 8] = i;
  out[i] = 1;
}
