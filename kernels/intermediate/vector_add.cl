// Seed 000_c6b5a6f2e0975939.txt (Intermediate OpenCL Programming), "Need not to Retrieve",
// Examples 1-5 (vectorAdd-nofetchC.c, vectorAdd-nofetchC-finish.c, vectorAdd-fetchC.c).
// The seed shows only the host programs, which share one kernel: three cl_uint buffers A, B, C
// of N elements, a 1-D range of N work-items, one per element. The kernel text is therefore
// reconstructed from that host code; the host variants differ only in how C is read back
// (no wait, clFinish on a CL_MEM_USE_HOST_PTR buffer, a blocking read), not in the kernel.
__kernel void vectorAdd(__global const uint *A, __global const uint *B, __global uint *C)
{
    int i = get_global_id(0);
    C[i] = A[i] + B[i];
}
