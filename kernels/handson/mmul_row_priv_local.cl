// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), Lecture 6, "Matrix multiplication: B column
// shared between work-items", corrected for this project (mmul_row_priv_local_as_published.cl
// is the published form). The published private array Awrk[1024] overflows for N > 1024; here
// its length is the build option -DNMAX=..., the seed's 1024 by default, and the host builds
// the kernel with NMAX >= N. Everything else is as published: column j of B is copied into the
// __local argument Bwrk (N floats) by the whole work-group between two barriers.
#ifndef NMAX
#define NMAX 1024
#endif

__kernel void mmul(
    const int N,
    __global float *A,
    __global float *B,
    __global float *C,
    local float *Bwrk)
{
    int j, k;
    int i =
        get_global_id(0);

    int iloc =
        get_local_id(0);

    int nloc =
        get_local_size(0);

    float tmp;
    float Awrk[NMAX];

    for (k = 0; k < N; k++)
        Awrk[k] = A[i*N+k];

    for (j = 0; j < N; j++) {
        for (k=iloc; k<N; k+=nloc)
            Bwrk[k] = B[k* N+j];

        barrier(CLK_LOCAL_MEM_FENCE);

        tmp = 0.0f;
        for (k = 0; k < N; k++)
            tmp += Awrk[k]*Bwrk[k];

        C[i*N+j] = tmp;

        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
