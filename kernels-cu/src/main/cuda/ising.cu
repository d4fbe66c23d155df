// The 2D Ising model on an L × L torus (DESIGN §5), spins ±1 as floats, one configuration per row,
// site (r, c) at column r·L + c, L even. A sweep is two launches of logz_ising_colour, colour 0 then
// 1 (or 1 then 0 for the time-reversed sweep): every site of the colour draws x = +1 with probability
// σ(2β h), h the sum of its four neighbours, in float32, with word i mod 4 of Philox block
// (i/4, particle, step, ISING) for site i, row r being particle first + r; a sweep is one transition and
// owns its Philox step (as the CPU backend).
// Element kernels: blocks of LOGZ_BLOCK, any grid, one thread per site. Per-row sums: one warp per
// row, fixed butterfly order. All deterministic.
#include "common.cuh"


// Uniform ±1 spins.
extern "C" __global__ void logz_ising_base(float* x, long long rows, int n, unsigned int k0, unsigned int k1, int step,
                                           long long first) {
    LOGZ_FOR_EACH(e, rows * n) {
        long long r = e / n;
        int i = (int) (e - r * n);
        logz_philox_out u = logz_philox((unsigned int) (i / 4), (unsigned int) (first + r), (unsigned int) step,
                                        LOGZ_TAG_ISING, k0, k1);
        x[e] = logz_uniform(u.w[i & 3]) < 0.5f ? 1.0f : -1.0f;
    }
}

// Heat-bath update of every site of one colour; β_r = betas[r] when given, else beta.
extern "C" __global__ void logz_ising_colour(float* x, int l, long long rows, float beta, const double* betas, int colour,
                                             unsigned int k0, unsigned int k1, int step, long long first) {
    int half = l * l / 2;
    LOGZ_FOR_EACH(e, rows * half) {
        long long r = e / half;
        int k = (int) (e - r * half);
        int row = k / (l / 2);
        int c = 2 * (k % (l / 2)) + ((row + colour) & 1);
        int i = row * l + c;
        float* s = x + r * l * l;
        float h = s[row * l + (c + 1) % l] + s[row * l + (c + l - 1) % l] + s[((row + 1) % l) * l + c]
                + s[((row + l - 1) % l) * l + c];
        float b = logz_row_beta(betas, beta, r);
        logz_philox_out u = logz_philox((unsigned int) (i / 4), (unsigned int) (first + r),
                                        (unsigned int) step, LOGZ_TAG_ISING, k0, k1);
        float p = logz_logistic(2.0f * b * h);
        s[i] = logz_uniform(u.w[i & 3]) < p ? 1.0f : -1.0f;
    }
}

// Σ_<ij> x_i x_j of row r by the warp, every bond once (right and down neighbours).
__device__ __forceinline__ double logz_ising_coupling_sum(const float* s, int l, int lane) {
    double sum = 0.0;
    for (int i = lane; i < l * l; i += LOGZ_WARP) {
        int row = i / l;
        int c = i - row * l;
        float xi = s[i];
        sum += (double) (xi * s[row * l + (c + 1) % l]) + (double) (xi * s[((row + 1) % l) * l + c]);
    }
    return logz_warp_reduce<logz_sum>(sum);
}

// out[r] = β Σ_<ij> x_i x_j.
extern "C" __global__ void logz_ising_log_density(const float* x, int l, long long rows, double beta, double* out) {
    LOGZ_FOR_EACH_WARP(r, lane, rows) {
        double s = logz_ising_coupling_sum(x + r * l * l, l, lane);
        if (lane == 0) {
            out[r] = beta * s;
        }
    }
}

// logW[r] += (to - from) Σ_<ij> x_i x_j.
extern "C" __global__ void logz_ising_anneal_weights(const float* x, int l, long long rows, double from, double to,
                                                     double* logW) {
    LOGZ_FOR_EACH_WARP(r, lane, rows) {
        double s = logz_ising_coupling_sum(x + r * l * l, l, lane);
        if (lane == 0) {
            logW[r] += (to - from) * s;
        }
    }
}
