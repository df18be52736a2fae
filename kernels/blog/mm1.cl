// Seed 004_1d2575cc07be0be3.txt (blog, "Matrix Multiplication 1 (OpenCL)", Kernel Listing 1),
// corrected for this project (mm1_as_published.cl is the published form): C is stored with its
// own row length wB instead of wA. C = A * B with A hA x wA, B wA x wB, C hA x wB, row-major, one
// work-item per element of C indexed by get_local_id, so, as in the seed, the whole of C is one
// work-group (hA * wB work-items at most the device's work-group limit).
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
C[ty * wB + tx] = value;
}
