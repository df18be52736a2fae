// A correct kernel for the own corpus run with non-uniform work-groups (OpenCL C 2.0): each
// work-item of a 3x3x3 grid stores its group's linear id at its own flattened index.

__kernel void group_of_each(__global int* out) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  size_t groups_x = get_num_groups(0), groups_y = get_num_groups(1);
  size_t group = get_group_id(0) + groups_x * (get_group_id(1) + groups_y * get_group_id(2));
  out[x + 3 * (y + 3 * z)] = (int)group;
}
