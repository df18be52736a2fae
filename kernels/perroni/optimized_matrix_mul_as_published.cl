// Seed 003_94bb6f8b7daffcd3.txt (Perroni, OpenCL slides, parallel architectures course), section
// "OpenCL Code Exercices", slides "Optimized Matrix Multiplication" (optimizedMatrixMul), exactly
// as published across its four slides: C = A * B in blkSize x blkSize blocks staged in the
// dynamic __local arguments As and Bs (blkSize * blkSize elements each), two barriers per
// block. Parameterised: the element type WORD is the build option -DWORD=... as in
// simple_matrix_mul.cl. The HTML residue "</pre>" in the slide text was left out.
// As published it does not compile: the qualifier is spelled "_kernel", the second barrier
// ends with ':' instead of ';', and the closing brace of the main loop is missing (so the
// store to C sits inside the loop and the function is never closed).
// optimized_matrix_mul.cl is the corrected form.
_kernel void optimizedMatrixMul(__global WORD* A,
    __global WORD* B, __global WORD* C,
    int wA, int N, int blkSize,
    // Declaration of local memory arrays, used to store the
    // sub-matrices of A and B.
    __local WORD *As, __local WORD *Bs){
    // Block index
    int bx = get_group_id(0);
    int by = get_group_id(1);
    // Thread index
    int tx = get_local_id(0);
    int ty = get_local_id(1);

    // Index of the first sub-matrix of A to be processed
    // by the block
    int aBegin = wA * blkSize * by;

    // Index of the last sub-matrix of A to be processed
    // by the block
    int aEnd = aBegin + wA - 1;

    // Step size used to iterate through the
    // sub-matrices of A
    int aStep = blkSize;

    // Index of the first sub-matrix of B to be processed
    // by the block
    int bBegin = blkSize * bx;
    // Step size used to iterate through the
    // sub-matrices of B

    int bStep = blkSize * N;

    // Register to accumulate the sum.
    float sum = 0;

// Main loop.
for(int a=aBegin, b=bBegin; a <= aEnd; a+=aStep, b+=bStep){
   // Bring block to local memory.
   As[ty * blkSize + tx] = A[a + wA * ty + tx];
   Bs[ty * blkSize + tx] = B[b + N * ty + tx];
   barrier(CLK_LOCAL_MEM_FENCE);
   for(int k=0; k < blkSize; ++k){
      sum += As[ty * blkSize + k] * Bs[k * blkSize + tx];
   }
   barrier(CLK_LOCAL_MEM_FENCE):
// Write the block sub-matrix to device memory.
// Each thread writes exactly one element.
C[get_global_id(1) * N + get_global_id(0)] = sum;
}
