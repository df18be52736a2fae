// Seed 004_1d2575cc07be0be3.txt (blog, "Matrix Multiplication 2 (OpenCL)", OpenCL Kernel
// Listing 1), corrected for this project (mm2_as_published.cl is the published form): C is
// stored with its own row length wB instead of wA. C = A * B with A hA x wA, B wA x wB, C hA x wB,
// row-major, one work-item per element of C, indexed by get_global_id (dimension 0 the column);
// no bounds check, so the range is exactly wB x hA.
/* kernel.cl
* Matrix multiplication: C = A * B.
* Device code.
*/

// OpenCL Kernel
__kernel void
matrixMul(__global float* C,
__global float* A,
__global float* B,
int wA, int wB)
{

// 2D Thread ID
// Old CUDA code
//int tx = blockIdx.x * TILE_SIZE + threadIdx.x;
//int ty = blockIdx.y * TILE_SIZE + threadIdx.y;
int tx = get_global_id(0);
int ty = get_global_id(1);

// value stores the element that is
// computed by the thread
float value = 0;
for (int k = 0; k < wA; ++k)
{
float elementA = A[ty * wA + k];
float elementB = B[k * wB + tx];
value += elementA * elementB;
}

// Write the matrix to device memory each
// thread writes one element
C[ty * wB + tx] = value;
}
