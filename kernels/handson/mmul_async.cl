// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), Appendix B, "Events inside Kernels ... Async.
// copy", corrected for this project (mmul_async_as_published.cl is the published form).
// C = A * B with A Ndim x Pdim, B Pdim x Mdim, C Ndim x Mdim, row-major; one work-item per row of
// C, its row of A in private memory, column j of B copied into the __local argument Bwrk
// (Pdim floats) by the work-group with an async copy. Corrections:
//  - column j of B is fetched with async_work_group_strided_copy from B + j, stride Mdim;
//  - A and C are indexed with their own row lengths, Pdim and Mdim;
//  - a barrier ends each j step, so no work-item's next copy overwrites Bwrk while another
//    work-item still reads it;
//  - Awrk has NMAX elements, a build option (-DNMAX=..., default the seed's 1024) with
//    NMAX >= Pdim;
//  - the range may be Ndim rounded up to the work-group size: extra work-items take part in
//    the copies and barriers but neither read A nor write C.
#ifndef NMAX
#define NMAX 1024
#endif

__kernel void mmul(
    const int Ndim,
    const int Mdim,
    const int Pdim,
    __global float *A,
    __global float *B,
    __global float *C,
    __local float *Bwrk)
{
    int k, j;
    int i = get_global_id(0);
    const bool row = i < Ndim;
    float tmp;
    float Awrk[NMAX];

    if (row)
        for (k = 0; k < Pdim; k++)
            Awrk[k] = A[i*Pdim+k];

    for (j = 0; j < Mdim; j++) {
        event_t ev_cp = async_work_group_strided_copy(
            Bwrk, B + j, (size_t) Pdim, (size_t) Mdim, (event_t) 0);

        wait_group_events(1, &ev_cp);

        if (row) {
            for (k = 0, tmp = 0.0f; k < Pdim; k++)
                tmp += Awrk[k] * Bwrk[k];
            C[i*Mdim+j] = tmp;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
