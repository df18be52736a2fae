// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), Lecture 6, "Making matrix multiplication
// *really* fast" and the performance table's "Block oriented approach using local" row, with
// Exercise 8's "Extra". The seed describes the blocked method (decompose the matrices into
// tiles, copy tiles into local memory, multiply over the tiles) but prints no kernel, so this
// kernel was written for this project from that description, in the style of the seed's other
// mmul kernels (same N, A, B, C arguments, row-major N x N floats, C = A * B).
// Each work-group of BS x BS work-items (BS = get_local_size(0) = get_local_size(1)) computes one
// BS x BS block of C; per step it copies one block of A and one of B into the __local arguments
// Ablk and Bblk (BS * BS floats each) between two barriers. Any N is allowed: the range is N
// rounded up to a multiple of BS in each dimension, block elements outside the matrices are
// loaded as zero, and only work-items inside C store.
__kernel void mmul(
    const int N,
    __global float *A,
    __global float *B,
    __global float *C,
    __local float *Ablk,
    __local float *Bblk)
{
    const int BS = get_local_size(0);
    const int r = get_local_id(0);   // row inside the block
    const int c = get_local_id(1);   // column inside the block
    const int i = get_global_id(0);  // row of C
    const int j = get_global_id(1);  // column of C
    const int nblocks = (N + BS - 1) / BS;

    float acc = 0.0f;
    for (int b = 0; b < nblocks; b++) {
        const int acol = b * BS + c;  // column of A this work-item copies
        const int brow = b * BS + r;  // row of B this work-item copies
        Ablk[r * BS + c] = (i < N && acol < N) ? A[i * N + acol] : 0.0f;
        Bblk[r * BS + c] = (brow < N && j < N) ? B[brow * N + j] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < BS; k++)
            acc += Ablk[r * BS + k] * Bblk[k * BS + c];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (i < N && j < N)
        C[i * N + j] = acc;
}
