// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), Lecture 6, "Matrix multiplication: One work
// item per row of C": each work-item of a 1-D range of N computes a whole row of C = A * B.
// Nothing was parameterised. (The seed's host code on the same slide passes three sizes,
// Ndim, Mdim and Pdim, to this one-size kernel; the kernel is taken as written.)
__kernel void mmul(
    const int N,
    __global float *A,
    __global float *B,
    __global float *C)
{
    int j, k;
    int i = get_global_id(0);
    float tmp;
    for (j = 0; j < N; j++) {
        tmp = 0.0f;
        for (k = 0; k < N; k++)
            tmp += A[i*N+k]*B[k*N+j];
        C[i*N+j] = tmp;
    }
}
