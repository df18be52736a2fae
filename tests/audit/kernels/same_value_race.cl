// Every work-item of a group stores 0 to one __local int with no barrier: a write-write race in
// which all store the same value. Oclgrind leaves such races out unless asked
// (scan --uniform-writes); the OpenCL C memory model makes any race undefined behaviour.
__kernel void reset(__global int* out) {
  __local int flag;
  flag = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = flag;
}
