// Image kernels for scan's image checks (issue 40): correct ones, which must be clean, and faulty
// ones: a read outside the image where CLK_ADDRESS_NONE leaves it undefined, and values never
// written that meet an image's pixels on their way to a store.

// The issue's kernel: no sampler, integer coordinates.
kernel void plain(read_only image2d_t img, global float* out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = read_imagef(img, (int2)(x, y)).x;
}

// A sampler argument (scan's: unnormalized, clamp to edge), every channel summed.
kernel void with_sampler(read_only image2d_t img, sampler_t s, global float* out) {
  const int2 at = (int2)(get_global_id(0), get_global_id(1));
  const float4 p = read_imagef(img, s, at);
  out[at.y * get_global_size(0) + at.x] = p.x + p.y + p.z + p.w;
}

// Normalised coordinates, linear filtering, CLK_ADDRESS_NONE kept inside by the half-pixel centre
// and a margin; the result decides a branch.
kernel void normalised(read_only image2d_t img, global float* out) {
  const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
  const int x = get_global_id(0), y = get_global_id(1);
  const float2 at = (float2)((x + 0.5f) / get_image_width(img), (y + 0.5f) / get_image_height(img));
  float v = read_imagef(img, s, at).y;
  if (v < 0.0f) v = -v;
  out[y * get_global_size(0) + x] = v;
}

// A helper that reads through its own image parameter; a weight from a __constant buffer.
float4 pixel(read_only image2d_t img, int2 at) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
  return read_imagef(img, s, at);
}
kernel void weighted(read_only image2d_t img, constant float* w, global float* out) {
  const int x = get_global_id(0), y = get_global_id(1);
  float sum = 0.0f;
  for (int k = 0; k < 4; ++k) sum += pixel(img, (int2)(x, y)).x * w[k];
  out[y * get_global_size(0) + x] = sum;
}

// 3-D, integer coordinates, no filtering.
kernel void volume(read_only image3d_t img, global int* out) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  const size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
  out[i] = read_imagef(img, s, (int4)(x, y, z, 0)).z > 0.0f ? 1 : 0;
}

// 3-D, normalised coordinates, a copy into another image.
kernel void volume_copy(read_only image3d_t src, write_only image2d_t dst) {
  const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  const int x = get_global_id(0), y = get_global_id(1);
  const float4 at = (float4)((x + 0.5f) / 8, (y + 0.5f) / 4, 0.5f, 0.0f);
  write_imagef(dst, (int2)(x, y), read_imagef(src, s, at));
}

// Clamp to edge makes a read one pixel to the right defined: clean.
kernel void right_clamped(read_only image2d_t img, global float* out) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  const int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = read_imagef(img, s, (int2)(x + 1, y)).x;
}

// Faulty: the same read with CLK_ADDRESS_NONE: the last column reads outside the image.
kernel void right_none(read_only image2d_t img, global float* out) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
  const int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = read_imagef(img, s, (int2)(x + 1, y)).x;
}

// Faulty: a private variable left unset for x == 0, added to a pixel.
kernel void unset_plus_pixel(read_only image2d_t img, global float* out) {
  const int x = get_global_id(0), y = get_global_id(1);
  float bias;
  if (x > 0) bias = 1.0f;
  out[y * get_global_size(0) + x] = read_imagef(img, (int2)(x, y)).x + bias;
}

// Faulty: pixels staged in __local memory, the last work-item's never loaded.
kernel void tile_short(read_only image2d_t img, global float* out) {
  local float tile[16];
  const int x = get_global_id(0), l = get_local_id(0);
  if (l < 15) tile[l] = read_imagef(img, (int2)(x, 0)).x;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[x] = tile[l];
}

// 1-D, no sampler: clean.
kernel void line(read_only image1d_t img, global float* out) {
  const int x = get_global_id(0);
  out[x] = read_imagef(img, x).w;
}
