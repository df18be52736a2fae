// Seed 000_c6b5a6f2e0975939.txt (Intermediate OpenCL Programming), "Matrix Multiplication",
// Example 15 (mul-kernel.cl): C = A * B for N x N int matrices, one work-item per element.
// Parameterised: the matrix side N (the seed's #define N 1024) is a build option, -DN=..., with
// the seed's value as the default.
#ifndef N
#define N 1024
#endif

__kernel void mul(__global int matrixA[N][N],
                  __global int matrixB[N][N],
                  __global int matrixC[N][N])
{
    int row = get_global_id(0);
    int col = get_global_id(1);
    int sum = 0;
    for (int i = 0; i < N; i++)
        sum += matrixA[row][i] * matrixB[i][col];
    matrixC[row][col] = sum;
}
