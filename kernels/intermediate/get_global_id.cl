// Seed 000_c6b5a6f2e0975939.txt (Intermediate OpenCL Programming), "Index", Example 7
// (get-global-id.cl). Parameterised: the array side N (the seed's #define N 16) is a build
// option, -DN=..., with the seed's value as the default.
#ifndef N
#define N 16
#endif

__kernel void getGlobalId(__global int globalId[2][N][N])
{
    int id0 = get_global_id(0);
    int id1 = get_global_id(1);
    globalId[0][id0][id1] = id0;
    globalId[1][id0][id1] = id1;
}
