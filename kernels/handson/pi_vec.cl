// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), Appendix A, "Exercise A: The vectorized Pi
// program": the Exercise 9 kernel (pi.cl) with its loop unrolled four times and the body in
// float4 operations. The seed prints no kernel, so this one was written for this project from
// that description. niters must be a multiple of 4.
// Contract, as in pi.cl: group_sums[g] is the sum of 4 / (1 + x*x), x = (i + 0.5) * step, over
// the steps [g*L*niters, (g+1)*L*niters), L the work-group size; work-item w of the group
// covers [(g*L + w) * niters, (g*L + w + 1) * niters), four consecutive steps per iteration.
__kernel void pi(const int niters,
                 const float step,
                 __local float *item_sums,
                 __global float *group_sums)
{
    const int w = get_local_id(0);
    const int L = get_local_size(0);
    const int first = (get_group_id(0) * L + w) * niters;
    const float4 lane = (float4)(0.5f, 1.5f, 2.5f, 3.5f);

    float4 sum4 = (float4)(0.0f);
    for (int n = 0; n < niters; n += 4) {
        const float4 x = ((float4)((float)(first + n)) + lane) * step;
        sum4 += (float4)(4.0f) / ((float4)(1.0f) + x * x);
    }
    item_sums[w] = (sum4.s0 + sum4.s1) + (sum4.s2 + sum4.s3);
    barrier(CLK_LOCAL_MEM_FENCE);

    if (w == 0) {
        float total = 0.0f;
        for (int k = 0; k < L; k++)
            total += item_sums[k];
        group_sums[get_group_id(0)] = total;
    }
}
