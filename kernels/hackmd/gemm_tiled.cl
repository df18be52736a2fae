// Seed 001_80066e08f2ae62e8.txt (HackMD notes on OpenCL, part 3: local memory),
// section "fixing the kernel's weakness": the tiled myGEMM kernel, corrected for this project so
// that it holds for every M, N and K, not only multiples of TS (see gemm_tiled_as_published.cl):
//  - the number of tiles rounds up, numTiles = (K + TS - 1) / TS;
//  - a tile element outside A or B is loaded as 0, so the partial last tile adds nothing;
//  - the range is M and N rounded up to multiples of TS, and only work-items inside C store.
// Every work-item still reaches both barriers. TS is the build option -DTS=..., as in the seed.
__kernel void myGEMM(const int M, const int N, const int K,
                      const __global float* A,
                      const __global float* B,
                      __global float* C) {

    // Thread identifiers
    const int row = get_local_id(0); // Local row ID (max: TS)
    const int col = get_local_id(1); // Local col ID (max: TS)
    const int globalRow = TS*get_group_id(0) + row; // Row ID of C (0..M)
    const int globalCol = TS*get_group_id(1) + col; // Col ID of C (0..N)

    // Local memory to fit a tile of TS*TS elements of A and B
    __local float Asub[TS][TS];
    __local float Bsub[TS][TS];

    // Initialise the accumulation register
    float acc = 0.0f;

    // Loop over all tiles, the last one possibly partial
    const int numTiles = (K + TS - 1)/TS;
    for (int t=0; t<numTiles; t++) {

        // Load one tile of A and B into local memory, zero outside the matrices
        const int tiledRow = TS*t + row;
        const int tiledCol = TS*t + col;
        Asub[col][row] = (globalRow < M && tiledCol < K) ? A[tiledCol*M + globalRow] : 0.0f;
        Bsub[col][row] = (globalCol < N && tiledRow < K) ? B[globalCol*K + tiledRow] : 0.0f;

        // Synchronise to make sure the tile is loaded
        barrier(CLK_LOCAL_MEM_FENCE);

        // Perform the computation for a single tile
        for (int k=0; k<TS; k++) {
            acc += Asub[k][row] * Bsub[col][k];
        }

        // Synchronise before loading the next tile
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    // Store the final result in C
    if (globalRow < M && globalCol < N)
        C[globalCol*M + globalRow] = acc;
}
