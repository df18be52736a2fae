// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), Lecture 5, "Matrix multiplication: OpenCL
// kernel": C += A * B for N x N row-major float matrices, one work-item per element of C over
// an N x N range. Nothing was parameterised. The kernel adds into C, so C must hold zeros
// before the launch (the seed's host program calls zero_mat first).
__kernel void mat_mul(
    const int N,
    __global float *A, __global float *B, __global float *C)
{
    int i, j, k;
    i = get_global_id(0);
    j = get_global_id(1);
    // C(i, j) = sum(over k) A(i,k) * B(k,j)
    for (k = 0; k < N; k++) {
        C[i*N+j] += A[i*N+k] * B[k*N+j];
    }
}
