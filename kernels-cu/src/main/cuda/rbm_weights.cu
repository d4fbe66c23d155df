// Per-particle log densities and weights of binary RBMs in float64 (DESIGN §5): AIS increments
// (with the hidden draw of the following sweep fused in, since both need u = xW), log f_β(x), and the
// ARM smoothing weights and augmentation of the sequential path (Fraccaro et al. eq. 14).
//
// One warp per particle (logz_levels: one thread per particle and level): blocks of LOGZ_BLOCK threads (LOGZ_BLOCK / 32 particles), any grid. Lanes
// take units lane, lane + 32, ... (hidden units in groups of four, one Philox block per group) and
// sum in a fixed butterfly order: deterministic, no atomics, no shared memory. Pointers to rows are
// offset to the first row; `first` is its absolute row for the Philox counters.
#include "common.cuh"

// Σ_i slope[i] x[r, i] over n units by the warp; every lane gets it.
template <typename T>
__device__ __forceinline__ double logz_row_dot(const float* x, int n, const T* coefficient, int lane) {
    double s = 0.0;
    for (int i = lane; i < n; i += LOGZ_WARP) {
        s += (double) coefficient[i] * (double) x[i];
    }
    return logz_warp_sum(s);
}

// One AIS step of the base-rate path: logW[r] += (to - from) Σ_i (a - a0)_i x_i
//   + Σ_j [softplus(to·(u_j + b_j)) - softplus(from·(u_j + b_j))], u = x_r W (rows × hn).
// When `transition`, also draws h[r, j] ~ Bernoulli(σ(to·(u_j + b_j))) from the float64 e^{-|z|} the
// weight needs (as the CPU backend), stream HIDDEN.
extern "C" __global__ void logz_anneal_weights(const float* u, const float* x, int n, int hn, long long rows,
                                               const float* b, const double* slope, double from, double to,
                                               double* logW, int transition, float* h, unsigned int k0, unsigned int k1,
                                               int step, long long first) {
    LOGZ_FOR_EACH_WARP(r, lane, rows) {
        double delta = 0.0;
        for (int j0 = lane * 4; j0 < hn; j0 += LOGZ_WARP * 4) {
            logz_philox_out w;
            if (transition) {
                w = logz_philox((unsigned int) (j0 / 4), (unsigned int) (first + r), (unsigned int) step,
                                LOGZ_TAG_HIDDEN, k0, k1);
            }
            for (int q = 0; q < 4 && j0 + q < hn; q++) {
                int j = j0 + q;
                double field = (double) (u[r * hn + j] + b[j]);
                double zTo = to * field;
                double t = exp(-fabs(zTo));
                delta += fmax(zTo, 0.0) + log1p(t) - logz_softplus(from * field);
                if (transition) {
                    float p = (float) (zTo >= 0.0 ? 1.0 / (1.0 + t) : t / (1.0 + t));
                    h[r * hn + j] = logz_bernoulli(logz_uniform(w.w[q]), p);
                }
            }
        }
        delta = logz_warp_sum(delta);
        double visible = logz_row_dot(x + r * n, n, slope, lane);
        if (lane == 0) {
            logW[r] += (to - from) * visible + delta;
        }
    }
}

// out[r] = Σ_i coefficient[i] x[r, i] + Σ_j softplus(β (u_j + b_j)), coefficient = (1-β) a0 + β a.
extern "C" __global__ void logz_log_density(const float* u, const float* x, int n, int hn, long long rows,
                                            const float* b, const double* coefficient, double beta, double* out) {
    LOGZ_FOR_EACH_WARP(r, lane, rows) {
        double s = 0.0;
        for (int j = lane; j < hn; j += LOGZ_WARP) {
            s += logz_softplus(beta * (double) (u[r * hn + j] + b[j]));
        }
        s = logz_warp_sum(s);
        double visible = logz_row_dot(x + r * n, n, coefficient, lane);
        if (lane == 0) {
            out[r] = visible + s;
        }
    }
}

// Every level of a ladder, for simulated tempering: logF[r·levels + k] = (1-β_k) a0ᵀx + β_k aᵀx
// + Σ_j softplus(β_k (u_j + b_j)) and slope[r·levels + k] = (a - a0)ᵀx + Σ_j (u_j + b_j) σ(β_k (u_j + b_j)).
// One warp per row: the two visible dot products once per row (the earlier thread-per-(row, level) form
// recomputed them for every level: 2·N·K loads and multiply-adds per row), then lane l takes levels
// l, l + 32, ... and sums the hidden units in index order, as the CPU reference does, reading u and b in
// step with the other lanes (one broadcast load per unit). Float64 throughout; the K·H exp and log1p of a
// row spread over min(K, 32) lanes, so ladders of 32 levels or more keep every lane busy.
extern "C" __global__ void logz_levels(const float* u, const float* x, int n, int hn, long long rows, const float* a,
                                       const float* a0, const float* b, const double* levelBetas, int levels,
                                       double* logF, double* slope) {
    LOGZ_FOR_EACH_WARP(r, lane, rows) {
        double base = logz_row_dot(x + r * n, n, a0, lane);
        double target = logz_row_dot(x + r * n, n, a, lane);
        for (int k = lane; k < levels; k += LOGZ_WARP) {
            double beta = levelBetas[k];
            double value = 0.0;
            double derivative = 0.0;
            for (int j = 0; j < hn; j++) {
                double field = (double) (u[r * hn + j] + b[j]);
                double z = beta * field;
                double ez = exp(-fabs(z));
                value += fmax(z, 0.0) + log1p(ez);
                derivative += field * (z >= 0.0 ? 1.0 / (1.0 + ez) : ez / (1.0 + ez));
            }
            logF[r * levels + k] = (1.0 - beta) * base + beta * target + value;
            slope[r * levels + k] = target - base + derivative;
        }
    }
}

// a_u + Σ_j [softplus(g_j + w_j) - softplus(g_j)]: the log-odds of unit u entering (eq. 14); every lane gets it.
__device__ __forceinline__ double logz_entry_logit(const float* g, int hn, const float* w, float a, int lane) {
    double s = 0.0;
    for (int j = lane; j < hn; j += LOGZ_WARP) {
        double gj = (double) g[j];
        s += logz_softplus(gj + (double) w[j]) - logz_softplus(gj);
    }
    return (double) a + logz_warp_sum(s);
}

// Smoothing weight of unit u: logW[r] += softplus(entry logit), g rows of hn floats, w = row u of W.
extern "C" __global__ void logz_smooth(const float* g, int hn, long long rows, const float* w, float a, double* logW) {
    LOGZ_FOR_EACH_WARP(r, lane, rows) {
        double s = logz_entry_logit(g + r * hn, hn, w, a, lane);
        if (lane == 0) {
            logW[r] += logz_softplus(s);
        }
    }
}

// Augmentation: x[r, unit] ~ Bernoulli(σ(entry logit)) (word 0 of block (0, particle, step, AUGMENT)),
// then g[r, j] += x[r, unit] w[j].
extern "C" __global__ void logz_augment(float* x, float* g, int n, int hn, long long rows, int unit, const float* w,
                                        float a, unsigned int k0, unsigned int k1, int step, long long first) {
    LOGZ_FOR_EACH_WARP(r, lane, rows) {
        double s = logz_entry_logit(g + r * hn, hn, w, a, lane);
        logz_philox_out u = logz_philox(0u, (unsigned int) (first + r), (unsigned int) step, LOGZ_TAG_AUGMENT, k0, k1);
        float on = logz_bernoulli(logz_uniform(u.w[0]), (float) logz_sigmoid(s));
        if (lane == 0) {
            x[r * n + unit] = on;
        }
        if (on == 1.0f) {
            for (int j = lane; j < hn; j += LOGZ_WARP) {
                g[r * hn + j] += w[j];
            }
        }
    }
}
