// Structs for the own corpus: a struct by value scales a buffer (correct), pairs of work-items
// update one struct in a buffer (race), and a private struct is copied out whole with one field
// never set (uninitialized).

typedef struct {
  float gain;
  int shift;
  float floor_value;
} Calibration;

typedef struct {
  int hits;
  float last;
} Counter;

typedef struct {
  char tag;
  int value;
} Tagged;

__kernel void apply_calibration(Calibration cal, __global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = fmax(in[i] * cal.gain + (float)cal.shift, cal.floor_value);
}

__kernel void pairs_bump_one_counter(__global Counter* counters) {
  size_t i = get_global_id(0);
  counters[i / 2].hits = (int)i;
  counters[i / 2].last = 1.0f;
}

__kernel void copy_out_half_set(__global Tagged* out) {
  Tagged t;
  t.tag = 'x';
  if (get_global_id(0) > 100) {
    t.value = 1;
  }
  out[get_global_id(0)] = t;
}
