// Each work-item stores its local id. Launched at global 10, local 4 with -cl-std=CL2.0: the last
// work-group has 2 work-items (non-uniform work-groups), which a device may refuse.
kernel void local_ids(global int* out) {
  out[get_global_id(0)] = (int)get_local_id(0);
}
