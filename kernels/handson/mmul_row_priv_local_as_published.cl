// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), Lecture 6, "Matrix multiplication: B column
// shared between work-items", exactly as published: each work-item keeps its row of A in the
// private array Awrk[1024]; for each column j the work-group copies column j of B into the
// __local argument Bwrk (N floats, cyclically over the work-items) between two barriers.
// Nothing was parameterised; the work-group size is the host's choice (the seed uses
// ORDER/16).
// As published Awrk has a fixed 1024 elements while the loops run to N, so any N > 1024 writes
// and reads past its end (the same defect as the previous slide's kernel).
// mmul_row_priv_local.cl is the corrected form.
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
    float Awrk[1024];

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
