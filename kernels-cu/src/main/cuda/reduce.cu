// Reductions of log-weight vectors: one block of LOGZ_BLOCK threads (launch with grid 1 and block
// LOGZ_BLOCK), 32 doubles of shared memory. Deterministic: thread t takes elements t, t + B, ... in
// order, then a fixed tree combines the threads; no float atomics.
#include "common.cuh"

// out[0] = max, out[1] = Σ exp(lw - max), out[2] = Σ exp(2 (lw - max)), out[3] = number of NaN or
// +inf entries, over lw[0, n). When every entry is -inf, out[0] = -inf and both sums are 0.
extern "C" __global__ void logz_weight_summary(const double* lw, long long n, double* out) {
    __shared__ double scratch[32];
    double max = -INFINITY;
    double bad = 0.0;
    for (long long k = threadIdx.x; k < n; k += blockDim.x) {
        double v = lw[k];
        if (v != v || v == INFINITY) {
            bad += 1.0;
        } else {
            max = fmax(max, v);
        }
    }
    max = logz_block_max(max, scratch);
    bad = logz_block_sum(bad, scratch);
    double s1 = 0.0;
    double s2 = 0.0;
    if (max != -INFINITY) {
        for (long long k = threadIdx.x; k < n; k += blockDim.x) {
            double v = lw[k];
            if (v == v && v != INFINITY) {
                double e = exp(v - max);
                s1 += e;
                s2 += e * e;
            }
        }
    }
    s1 = logz_block_sum(s1, scratch);
    s2 = logz_block_sum(s2, scratch);
    if (threadIdx.x == 0) {
        out[0] = max;
        out[1] = s1;
        out[2] = s2;
        out[3] = bad;
    }
}
