// Seed 001_80066e08f2ae62e8.txt (HackMD notes on OpenCL, part 3: local memory),
// section "introduction to the code": the naive myGEMM kernel. Column-major
// matrices: A is M x K, B is K x N, C = A * B is M x N; one work-item per element of C over
// an M x N range. Nothing was parameterised: M, N and K are the seed's own arguments. The
// kernel has no bounds check, so the range must be exactly M x N.
__kernel void myGEMM(const int M, const int N, const int K,
                     const __global float* A,
                     const __global float* B,
                     __global float* C) {

    // Thread identifiers
    const int globalRow = get_global_id(0); // Row ID of C (0..M)
    const int globalCol = get_global_id(1); // Col ID of C (0..N)

    // Compute a single element (loop over K)
    float acc = 0.0f;
    for (int k=0; k<K; k++) {
        acc += A[k*M + globalRow] * B[globalCol*K + k];
    }

    // Store the result
    C[globalCol*M + globalRow] = acc;
}
