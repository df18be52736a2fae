// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), Lecture 5, "Matrix multiplication: OpenCL
// kernel improved": one work-item per element of C, the dot product accumulated in a private
// scalar and then added into C (C must hold zeros before the launch, as the seed's host program
// ensures with zero_mat). Nothing was parameterised.
__kernel void mmul(
    const int N,
    __global float *A,
    __global float *B,
    __global float *C)
{
    int k;
    int i = get_global_id(0);
    int j = get_global_id(1);
    float tmp = 0.0f;
    for (k = 0; k < N; k++)
        tmp += A[i*N+k]*B[k*N+j];
    C[i*N+j] += tmp;
}
