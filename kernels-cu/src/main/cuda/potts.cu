// The q-state Potts model on an L × L torus (DESIGN §5; Habeck 2017 §6.2), colours 0 .. q-1 as floats, one
// configuration per row, site (r, c) at column r·L + c, L even; log f_β = β J S(x), S the bonds (each site's right and
// down neighbour) whose ends share a colour. Row r is particle first + r for Philox counters, all under MODEL with the
// purpose in the block index's top bits (org.logz.model.potts.PottsSteps, whose float32 steps these port operation for
// operation, so the CPU backend and this file draw the same colours from the same uniforms):
//   logz_potts_base:   colour floor(u q) (at most q - 1), u word i mod 4 of block (i/4, first + r, step, MODEL).
//   logz_potts_colour: one colour class of a checkerboard sweep (a sweep is two launches, colour 0 then 1, or 1 then 0
//                      for the time-reversed sweep; one Philox step per sweep). Heat-bath: the site's colour by inverting
//                      its conditional e^{β J n_x} at u (word i mod 4 of block (1 << 24 | i/4, ...)); Metropolis: a
//                      uniform other colour accepted with min(1, e^{β J Δ}) (words 2(i mod 2), 2(i mod 2) + 1 of block
//                      (2 << 24 | i/2, ...)). β_r = betas[r] when given, else beta; weights s[k] = e^{-β J k} in float32
//                      from float64 β J, as the CPU.
//   logz_potts_log_density / logz_potts_anneal_weights: out[r] = β (J S), logW[r] += ((to - from) J) S (S exact).
// Preconditions: 2 ≤ q ≤ 255, L even, L² ≤ 2^24, colours in [0, q). Element kernels: blocks of LOGZ_BLOCK, any grid,
// one thread per site of the colour class (sites of one class are never neighbours). Per-row sums: one warp per row,
// fixed butterfly order. All deterministic.
#include "common.cuh"

#define LOGZ_POTTS_HEATBATH 1
#define LOGZ_POTTS_METROPOLIS 2

// Integer min and max (the host emulation has no CUDA integer overloads).
__device__ __forceinline__ int logz_potts_min(int a, int b) {
    return a < b ? a : b;
}

__device__ __forceinline__ int logz_potts_max(int a, int b) {
    return a > b ? a : b;
}

__device__ __forceinline__ int logz_potts_agree(int x, int a, int b, int c, int d) {
    return (x == a) + (x == b) + (x == c) + (x == d);
}

// PottsSteps.heatBath: the distinct neighbour colours by a sorting network, then the cumulative weights over colours
// 0 .. q-1 inverted at u W, runs of base-weight colours crossed in one step.
__device__ __forceinline__ int logz_potts_heat_bath(int q, int a, int b, int c, int d, const float* s, float u) {
    int x0 = logz_potts_min(a, b);
    int x1 = logz_potts_max(a, b);
    int x2 = logz_potts_min(c, d);
    int x3 = logz_potts_max(c, d);
    int m1 = logz_potts_max(x0, x2);
    int m2 = logz_potts_min(x1, x3);
    int v[4] = {logz_potts_min(x0, x2), logz_potts_min(m1, m2), logz_potts_max(m1, m2), logz_potts_max(x1, x3)};
    int most = logz_potts_max(logz_potts_max(logz_potts_agree(a, a, b, c, d), logz_potts_agree(b, a, b, c, d)),
                   logz_potts_max(logz_potts_agree(c, a, b, c, d), logz_potts_agree(d, a, b, c, d)));
    int distinct = 1 + (v[1] != v[0]) + (v[2] != v[1]) + (v[3] != v[2]);
    float rest = s[most];
    float total = (float) (q - distinct) * rest;
    for (int j = 0; j < 4; j++) {
        if (j == 0 || v[j] != v[j - 1]) {
            total += s[most - logz_potts_agree(v[j], a, b, c, d)];
        }
    }
    float target = u * total;
    float acc = 0.0f;
    int next = 0;
    int last = -1;
    for (int j = 0; j < 4; j++) {
        if (j > 0 && v[j] == v[j - 1]) {
            continue;
        }
        float gap = (float) (v[j] - next) * rest;
        if (target < acc + gap) {
            return next + (int) fminf((target - acc) / rest, (float) (v[j] - 1 - next));
        }
        if (gap > 0.0f) {
            last = v[j] - 1;
        }
        acc += gap;
        float w = s[most - logz_potts_agree(v[j], a, b, c, d)];
        if (target < acc + w) {
            return v[j];
        }
        if (w > 0.0f) {
            last = v[j];
        }
        acc += w;
        next = v[j] + 1;
    }
    if (next < q && rest > 0.0f) {
        return next + (int) fminf((target - acc) / rest, (float) (q - 1 - next));
    }
    return last;
}

// PottsSteps.metropolis: proposal (x + 1 + floor(u (q-1))) mod q, accepted when it loses no agreement or v < s[-Δ].
__device__ __forceinline__ int logz_potts_metropolis(int q, int x, int a, int b, int c, int d, const float* s, float u,
                                                     float v) {
    int proposed = x + 1 + logz_potts_min((int) (u * (float) (q - 1)), q - 2);
    if (proposed >= q) {
        proposed -= q;
    }
    int delta = logz_potts_agree(proposed, a, b, c, d) - logz_potts_agree(x, a, b, c, d);
    return delta >= 0 || v < s[-delta] ? proposed : x;
}

// Uniform colours.
extern "C" __global__ void logz_potts_base(float* x, long long rows, int n, int q, unsigned int k0, unsigned int k1,
                                           int step, long long first) {
    LOGZ_FOR_EACH(e, rows * n) {
        long long r = e / n;
        int i = (int) (e - r * n);
        logz_philox_out u = logz_philox((unsigned int) (i / 4), (unsigned int) (first + r), (unsigned int) step,
                                        LOGZ_TAG_MODEL, k0, k1);
        x[e] = (float) logz_potts_min((int) (logz_uniform(u.w[i & 3]) * (float) q), q - 1);
    }
}

// One colour class of a heat-bath (moves = 1) or Metropolis (moves = 2) sweep.
extern "C" __global__ void logz_potts_colour(float* x, int l, long long rows, int q, double coupling, double beta,
                                             const double* betas, int colour, int moves, unsigned int k0,
                                             unsigned int k1, int step, long long first) {
    int half = l * l / 2;
    LOGZ_FOR_EACH(e, rows * half) {
        long long r = e / half;
        int k = (int) (e - r * half);
        int row = k / (l / 2);
        int c = 2 * (k % (l / 2)) + ((row + colour) & 1);
        int i = row * l + c;
        float* cfg = x + r * l * l;
        int a = (int) cfg[row * l + (c + 1) % l];
        int b = (int) cfg[row * l + (c + l - 1) % l];
        int d = (int) cfg[((row + 1) % l) * l + c];
        int t = (int) cfg[((row + l - 1) % l) * l + c];
        double betaJ = (betas != 0 ? betas[r] : beta) * coupling;
        float s[5];
        for (int m = 0; m <= 4; m++) {
            s[m] = (float) exp(-betaJ * m);
        }
        if (moves == LOGZ_POTTS_HEATBATH) {
            unsigned int block = (LOGZ_POTTS_HEATBATH << 24) | (unsigned int) (i >> 2);
            logz_philox_out u = logz_philox(block, (unsigned int) (first + r), (unsigned int) step, LOGZ_TAG_MODEL, k0, k1);
            cfg[i] = (float) logz_potts_heat_bath(q, a, b, d, t, s, logz_uniform(u.w[i & 3]));
        } else {
            unsigned int block = (LOGZ_POTTS_METROPOLIS << 24) | (unsigned int) (i >> 1);
            logz_philox_out u = logz_philox(block, (unsigned int) (first + r), (unsigned int) step, LOGZ_TAG_MODEL, k0, k1);
            int w = 2 * (i & 1);
            cfg[i] = (float) logz_potts_metropolis(q, (int) cfg[i], a, b, d, t, s, logz_uniform(u.w[w]),
                                                   logz_uniform(u.w[w + 1]));
        }
    }
}

// S(x) of row r by the warp, every bond once (right and down neighbours), exact in float64.
__device__ __forceinline__ double logz_potts_agreements(const float* cfg, int l, int lane) {
    double sum = 0.0;
    for (int i = lane; i < l * l; i += LOGZ_WARP) {
        int row = i / l;
        int c = i - row * l;
        float xi = cfg[i];
        sum += (double) ((xi == cfg[row * l + (c + 1) % l]) + (xi == cfg[((row + 1) % l) * l + c]));
    }
    return logz_warp_reduce<logz_sum>(sum);
}

// out[r] = β (J S(x_r)), in the CPU's order.
extern "C" __global__ void logz_potts_log_density(const float* x, int l, long long rows, double beta, double coupling,
                                                  double* out) {
    LOGZ_FOR_EACH_WARP(r, lane, rows) {
        double s = logz_potts_agreements(x + r * l * l, l, lane);
        if (lane == 0) {
            out[r] = beta * (coupling * s);
        }
    }
}

// logW[r] += (to - from) J S(x_r).
extern "C" __global__ void logz_potts_anneal_weights(const float* x, int l, long long rows, double step, double* logW) {
    LOGZ_FOR_EACH_WARP(r, lane, rows) {
        double s = logz_potts_agreements(x + r * l * l, l, lane);
        if (lane == 0) {
            logW[r] += step * s;
        }
    }
}
