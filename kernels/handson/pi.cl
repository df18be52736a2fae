// Seed 002_e55f2e832a274458.txt (Hands On OpenCL), Lecture 7, "Exercise 9: The Pi program".
// The seed gives the serial midpoint-rule program (pi = step * sum of 4 / (1 + x*x) at
// x = (i + 0.5) * step) and asks for a kernel in which each work-item does many iterations,
// the work-items of a work-group combine their sums through local memory after a barrier, and
// the host adds the per-work-group results. It prints no kernel, so this one was written for
// this project from that description.
// Contract: work-item w of work-group g (L work-items per group) sums the steps
// [(g*L + w) * niters, (g*L + w + 1) * niters); after the barrier work-item 0 writes the sum of
// its group's L values to group_sums[g]. So group_sums[g] is the sum over the steps
// [g*L*niters, (g+1)*L*niters), not yet multiplied by step; pi = step * sum of group_sums.
__kernel void pi(const int niters,
                 const float step,
                 __local float *item_sums,
                 __global float *group_sums)
{
    const int w = get_local_id(0);
    const int L = get_local_size(0);
    const int first = (get_group_id(0) * L + w) * niters;

    float sum = 0.0f;
    for (int n = 0; n < niters; n++) {
        const float x = ((float)(first + n) + 0.5f) * step;
        sum += 4.0f / (1.0f + x * x);
    }
    item_sums[w] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);

    if (w == 0) {
        float total = 0.0f;
        for (int k = 0; k < L; k++)
            total += item_sums[k];
        group_sums[get_group_id(0)] = total;
    }
}
