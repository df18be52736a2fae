// Seed 004_1d2575cc07be0be3.txt (blog, "Matrix Multiplication 2 (OpenCL)", OpenCL Kernel
// Listing 1), exactly as published: C = A * B with A hA x wA, B wA x wB, C hA x wB, row-major,
// one work-item per element of C, indexed by get_global_id (dimension 0 the column). Nothing
// was parameterised (the seed's host passes wA and wB = wC as arguments, 16 x 16 work-groups
// over 1024 x 1024).
// As published C is stored with row length wA instead of wB: wrong whenever wA != wB (and past
// the end of C when wA > wB). The seed only runs square matrices. mm2.cl is the corrected form.
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
C[ty * wA + tx] = value;
}
