// Seed 003_94bb6f8b7daffcd3.txt (Perroni, OpenCL slides, parallel architectures course), section
// "OpenCL Code Exercices", slides "Matrix Multiplication" (simpleMatrixMul), corrected for this
// project (simple_matrix_mul_as_published.cl is the published form): the dot product runs over
// A's width wA instead of B's width N. C = A * B with A m x wA, B wA x N and C m x N, row-major;
// one work-item per element of C, dimension 0 the column and dimension 1 the row.
// Parameterised: the element type WORD, which the seed's framework defines elsewhere, is the
// build option -DWORD=... (the seed's host sizes its buffers with sizeof(float)).
__kernel void simpleMatrixMul(
    __global WORD* A, // matrix A
    __global WORD* B, // Matrix B
    __global WORD* C, // Resulting matrix C
    int wA, int N // A and B width, respectively.
)
{
    // Global index
    int gx = get_global_id(0); // C matrix column.
    int gy = get_global_id(1); // C matrix row.

    // Create a private variable (register)
    // to accumulate the sum.
    float sum = 0;

    // Sum matrices A and B.
    for(int i=0; i < wA; i++){
        sum += A[gy * wA + i] *
            B[i * N + gx];
    }

    // Send the sum back
    // to Global memory.
    C[gy * N + gx] = sum;
}
