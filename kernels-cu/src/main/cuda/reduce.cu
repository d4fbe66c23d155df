// Reductions of log-weight vectors: one block of LOGZ_BLOCK threads (launch with grid 1 and block
// LOGZ_BLOCK), 32 doubles of shared memory. Deterministic: thread t takes elements t, t + B, ... in
// order, then a fixed tree combines the threads; no float atomics.
#include "common.cuh"

// The largest finite-or-(-inf) entry of lw + s·delta over [0, n) (delta null: lw alone) and the number of NaN or +inf
// entries, both over the whole block; every thread gets them. Same preconditions as logz_block_reduce.
template <typename Scratch>
__device__ __forceinline__ double logz_block_max_counting_bad(const double* lw, const double* delta, double s,
                                                              long long n, Scratch& scratch, double* bad) {
    double max = -INFINITY;
    double count = 0.0;
    for (long long k = threadIdx.x; k < n; k += blockDim.x) {
        double v = delta != 0 ? lw[k] + s * delta[k] : lw[k];
        if (v != v || v == INFINITY) {
            count += 1.0;
        } else {
            max = fmax(max, v);
        }
    }
    max = logz_block_reduce<logz_max>(max, scratch);
    *bad = logz_block_reduce<logz_sum>(count, scratch);
    return max;
}

// out[0] = max, out[1] = Σ exp(lw - max), out[2] = Σ exp(2 (lw - max)), out[3] = number of NaN or
// +inf entries, over lw[k] + s·delta[k], k < n (delta null: lw alone). When every entry is -inf,
// out[0] = -inf and both sums are 0.
__device__ void logz_summary_of(const double* lw, const double* delta, double s, long long n, double* out) {
    __shared__ logz_shared<double[32]> scratch;
    double bad;
    double max = logz_block_max_counting_bad(lw, delta, s, n, scratch, &bad);
    double s1 = 0.0;
    double s2 = 0.0;
    if (max != -INFINITY) {
        for (long long k = threadIdx.x; k < n; k += blockDim.x) {
            double v = delta != 0 ? lw[k] + s * delta[k] : lw[k];
            if (v == v && v != INFINITY) {
                double e = exp(v - max);
                s1 += e;
                s2 += e * e;
            }
        }
    }
    s1 = logz_block_reduce<logz_sum>(s1, scratch);
    s2 = logz_block_reduce<logz_sum>(s2, scratch);
    if (threadIdx.x == 0) {
        out[0] = max;
        out[1] = s1;
        out[2] = s2;
        out[3] = bad;
    }
}

// The summary of lw[0, n).
extern "C" __global__ void logz_weight_summary(const double* lw, long long n, double* out) {
    logz_summary_of(lw, 0, 0.0, n, out);
}

// The summary of lw + s·delta over [0, n), for trial steps (ParticleBackend.summarize with a delta).
extern "C" __global__ void logz_trial_summary(const double* lw, const double* delta, double s, long long n,
                                              double* out) {
    logz_summary_of(lw, delta, s, n, out);
}

// The weighted mean and variance of v[offset + k·stride] under weights ∝ exp(lw[k]), k < n
// (WeightedMoments.of): out[0] = mean, out[1] = variance, out[2] = number of NaN or +inf log weights,
// out[3] = the largest log weight (-inf when every weight is zero). Three passes in the fixed order of
// logz_weight_summary: the maximum, then Σ w and Σ w v, then Σ w (v - mean)².
extern "C" __global__ void logz_weighted_moments(const double* lw, const double* v, long long offset, long long stride,
                                                 long long n, double* out) {
    __shared__ logz_shared<double[32]> scratch;
    double bad;
    double max = logz_block_max_counting_bad(lw, 0, 0.0, n, scratch, &bad);
    double total = 0.0;
    double first = 0.0;
    if (max != -INFINITY) {
        for (long long k = threadIdx.x; k < n; k += blockDim.x) {
            double w = exp(lw[k] - max);
            total += w;
            first += w * v[offset + k * stride];
        }
    }
    total = logz_block_reduce<logz_sum>(total, scratch);
    first = logz_block_reduce<logz_sum>(first, scratch);
    double mean = first / total;
    double second = 0.0;
    if (max != -INFINITY) {
        for (long long k = threadIdx.x; k < n; k += blockDim.x) {
            double d = v[offset + k * stride] - mean;
            second += exp(lw[k] - max) * d * d;
        }
    }
    second = logz_block_reduce<logz_sum>(second, scratch);
    if (threadIdx.x == 0) {
        out[0] = mean;
        out[1] = second / total;
        out[2] = bad;
        out[3] = max;
    }
}
