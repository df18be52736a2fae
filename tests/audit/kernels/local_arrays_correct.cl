// Correct uses of __local and private arrays that a per-array bounds check must not report: a 2-D
// tile, an array of structs, float4 elements, a pointer into a tile passed to a helper with an
// offset, and a private array read through a pointer to its middle. Sized for groups of 8.
typedef struct {
  float value;
  int count[3];
} Cell;

void put(__local float* row, int i, float v) {
  row[i] = v;
}

__kernel void tiles(__global float* out) {
  __local float tile[8][9];
  __local Cell cells[8];
  __local float4 quads[8];
  const int l = get_local_id(0);
  const int g = get_global_id(0);
  put(&tile[l][1], 7, (float)g);  // tile[l][8], the last column
  tile[l][0] = 1.0f;
  cells[l].value = (float)l;
  cells[l].count[2] = l;
  quads[l] = (float4)(l, l, l, l);
  float priv[6] = {0, 1, 2, 3, 4, 5};
  float* middle = priv + 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int n = (l + 1) % 8;
  out[g] = tile[n][8] + tile[n][0] + cells[n].value + (float)cells[n].count[2] + quads[n].w +
           middle[-3] + middle[2];
}
