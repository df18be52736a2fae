// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), Lecture 6, "Matrix multiplication: (Row of
// A in private memory)", exactly as published: each work-item copies its row of A into the
// private array Awrk[1024], then computes its row of C and adds it into C (C must hold zeros
// before the launch). Nothing was parameterised.
// As published the private array has a fixed 1024 elements while the loops run to N, so any
// N > 1024 writes and reads past the end of Awrk. mmul_row_priv.cl is the corrected form.
__kernel void mmul(
    const int N,
    __global float *A,
    __global float *B,
    __global float *C)
{
    int j, k;
    int i =
        get_global_id(0);
    float tmp;
    float Awrk[1024];

    for (k = 0; k < N; k++)
        Awrk[k] = A[i*N+k];

    for (j = 0; j < N; j++) {
        tmp = 0.0f;
        for (k = 0; k < N; k++)
            tmp += Awrk[k]*B[k*N+j];

        C[i*N+j] += tmp;
    }
}
