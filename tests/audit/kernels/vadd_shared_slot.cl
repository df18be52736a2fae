// vadd through one __local slot shared by the whole work-group: a race between the work-items of a
// group (results stay right on Oclgrind, which runs the items of a group one after another). Its
// spec leaves the local size to the driver, where Oclgrind alone would run 1x1 groups.
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   const unsigned int count) {
  __local float slot;
  const int i = get_global_id(0);
  if (i < count) {
    slot = a[i];
    c[i] = slot + b[i];
  }
}
