// Seed 000_c6b5a6f2e0975939.txt (Intermediate OpenCL Programming), "Local Memory",
// Examples 30-34 (mul-local-kernel.cl): C = A * B for N x N int matrices, with each
// work-group of BSIDE x BSIDE work-items staging one BSIDE x BSIDE block of A and of B in local
// memory per step (two barriers per step). Parameterised: N and Blk (the seed's #define N 1024
// and #define Blk 64) are build options, -DN=... -DBlk=..., with the seed's values as defaults;
// BSIDE stays N / Blk as in the seed, so N must be a multiple of Blk and the work-group is
// BSIDE x BSIDE.
#ifndef N
#define N 1024
#endif
#ifndef Blk
#define Blk 64
#endif
#define BSIDE (N / Blk)

__kernel void mul(__global int A[N][N],
                  __global int B[N][N],
                  __global int C[N][N])
{
    int globalRow = get_global_id(0);
    int globalCol = get_global_id(1);
    int localRow = get_local_id(0);
    int localCol = get_local_id(1);

    __local int ALocal[BSIDE][BSIDE];
    __local int BLocal[BSIDE][BSIDE];

    int sum = 0;
    for (int block = 0; block < Blk; block++) {
        ALocal[localRow][localCol] =
            A[globalRow][block * BSIDE + localCol];
        BLocal[localRow][localCol] =
            B[block * BSIDE + localRow][globalCol];
        barrier(CLK_LOCAL_MEM_FENCE);
        /* inner */
        for (int k = 0; k < BSIDE; k++)
            sum += ALocal[localRow][k] * BLocal[k][localCol];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[globalRow][globalCol] = sum;
}
