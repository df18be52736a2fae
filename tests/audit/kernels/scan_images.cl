// Image and sampler arguments scan makes (issue 27): a correct 2-D copy, a copy whose every
// work-item of a row writes the same pixel (a race), and an image read through a sampler argument.

__kernel void copy_image(__write_only image2d_t dst, __read_only image2d_t src) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  const int2 at = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, at, read_imagef(src, s, at));
}

__kernel void row_to_one_pixel(__write_only image2d_t dst, __read_only image2d_t src) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  write_imagef(dst, (int2)(0, get_global_id(1)),
               read_imagef(src, s, (int2)(get_global_id(0), get_global_id(1))));
}

__kernel void read_through(__read_only image2d_t img, sampler_t s, __global float* out) {
  const int2 at = (int2)(get_global_id(0), get_global_id(1));
  out[get_global_id(0) + get_global_size(0) * get_global_id(1)] = read_imagef(img, s, at).x;
}
