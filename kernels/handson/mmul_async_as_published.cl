// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), Appendix B, "Events inside Kernels ... Async.
// copy", as published. The slide prints only the body; the signature follows the seed's host
// code for this family of kernels (Exercise 8: Ndim, Mdim, Pdim, the buffers A, B, C and a
// __local float array of Pdim elements), and the declarations (i from get_global_id(0), the
// private Awrk[1024] of the previous slides) were added so that the body compiles. The body
// is unchanged.
// As published the async copy always fetches the first Pdim elements of B, the same data for
// every j, instead of column j; C(i, j) is therefore wrong whenever Mdim > 1. Nothing orders a
// work-item's last reads of Bwrk in step j before the work-group's copy of step j + 1, a race
// on local memory. (It also indexes A and C with Ndim where Pdim and Mdim belong, and Awrk
// overflows for Pdim > 1024; the seed runs it with Ndim = Mdim = Pdim.) mmul_async.cl is the
// corrected form.
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
    float tmp;
    float Awrk[1024];

    // A, B, C kernel args ... global buffers.
    // Bwrk is a local buffer

    for(k=0;k<Pdim;k++)
        Awrk[k] = A[i*Ndim+k];

    for(j=0;j<Mdim;j++){
        event_t ev_cp = async_work_group_copy(
            (__local float*) Bwrk, (__global float*) B,
            (size_t) Pdim, (event_t) 0);

        wait_group_events(1, &ev_cp);

        for(k=0, tmp= 0.0;k<Pdim;k++)
            tmp += Awrk[k] * Bwrk[k];
        C[i*Ndim+j] = tmp;

    }
}
