// A lookup table at program scope (OpenCL 2.0), read by name and through a program-scope pointer
// into it. Correct for n <= 4; with n = 5 work-item 4 reads table[4], one past the end.
global int table[4] = {1, 2, 3, 5};
global int* last = &table[3];

kernel void lookup(global int* out, int n) {
  int i = get_global_id(0);
  out[i] = table[i % n] + *last;
}
