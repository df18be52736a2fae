// Seed 004_1d2575cc07be0be3.txt (blog, "Matrix Multiplication 1 (OpenCL)", Kernel Listing 1),
// exactly as published: C = A * B with A hA x wA, B wA x wB, C hA x wB, row-major, one work-item
// per element of C, indexed by get_local_id. Nothing was parameterised (the seed's host passes
// wA and wB as arguments and launches one 3 x 3 work-group for 3 x 3 matrices).
// As published it is right only for one work-group covering all of C, and only when wA == wB:
// with several work-groups every group recomputes and rewrites the first block of C (local ids
// repeat), leaving the rest unwritten; and C is stored with row length wA instead of wB.
// mm1.cl is the corrected form.
// kernel.cl
// Multiply two matrices A * B = C
// Device code.


// OpenCL Kernel
__kernel void
matrixMul(__global float* C,
__global float* A,
__global float* B,
int wA, int wB)
{

// 2D Thread ID
int tx = get_local_id(0);
int ty = get_local_id(1);

// value stores the element
// that is computed by the thread
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
