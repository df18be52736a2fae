// Seed 000_c6b5a6f2e0975939.txt (Intermediate OpenCL Programming), "Local Index", Example 12
// (get-global-local-id.cl). Parameterised: the array side N (the seed's #define N 16) is a
// build option, -DN=..., with the seed's value as the default; the work-group shape, which the
// seed's host program reads from its command line (Example 14), is chosen by the spec.
#ifndef N
#define N 16
#endif

__kernel void getGlobalId(__global int globalId[2][N][N],
                          __global int localId[2][N][N])
{
    int id0 = get_global_id(0);
    int id1 = get_global_id(1);
    globalId[0][id0][id1] = get_global_id(0);
    globalId[1][id0][id1] = get_global_id(1);
    localId[0][id0][id1] = get_local_id(0);
    localId[1][id0][id1] = get_local_id(1);
}
