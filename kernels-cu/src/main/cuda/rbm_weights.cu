// Per-particle log densities and weights of binary RBMs (DESIGN §5): AIS increments in float64 (with the hidden
// draw of the following sweep fused in, since both need u = xW), log f_β(x) in float64, the all-level densities of
// tempered sampling in float32 with float64 sums (fastmath.cuh, the CPU backend's bits), and the ARM smoothing
// weights and augmentation of the sequential path (Fraccaro et al. eq. 14).
//
// One warp per particle (logz_levels: then one lane per level): blocks of LOGZ_BLOCK threads (LOGZ_BLOCK / 32 particles), any grid. Lanes
// take units lane, lane + 32, ... (hidden units in groups of four, one Philox block per group) and
// sum in a fixed butterfly order: deterministic, no atomics, no shared memory. Pointers to rows are
// offset to the first row; `first` is its absolute row for the Philox counters.
#include "common.cuh"
#include "fastmath.cuh"

// Σ_i slope[i] x[r, i] over n units by the warp; every lane gets it.
template <typename T>
__device__ __forceinline__ double logz_row_dot(const float* x, int n, const T* coefficient, int lane) {
    double s = 0.0;
    for (int i = lane; i < n; i += LOGZ_WARP) {
        s += (double) coefficient[i] * (double) x[i];
    }
    return logz_warp_reduce<logz_sum>(s);
}

// One AIS step of the base-rate path: logW[r] += (to - from) Σ_i (a - a0)_i x_i
//   + Σ_j [softplus(to·(u_j + b_j)) - softplus(from·(u_j + b_j))], u = x_r W (rows × hn).
// When `transition`, also draws h[r, j] ~ Bernoulli(σ(to·(u_j + b_j))) from the float64 e^{-|z|} the
// weight needs (as the CPU backend), stream HIDDEN.
// Launch bounds as logz_levels's (below): 64 registers without spills (72 unbounded), half an SM's warps.
extern "C" __global__ void __launch_bounds__(LOGZ_BLOCK, 4) logz_anneal_weights(const float* u, const float* x, int n, int hn, long long rows,
                                               const float* b, const double* slope, double from, double to,
                                               double* logW, int transition, float* h, unsigned int k0, unsigned int k1,
                                               int step, long long first) {
    // four units a lane as one 16-byte access where the rows allow it (rbm_gibbs.cu's sampling kernels)
    bool vector = (hn & 3) == 0 && logz_aligned16(u) && logz_aligned16(b) && (!transition || logz_aligned16(h));
    LOGZ_FOR_EACH_WARP(r, lane, rows) {
        double delta = 0.0;
        for (int j0 = lane * 4; j0 < hn; j0 += LOGZ_WARP * 4) {
            logz_philox_out w;
            if (transition) {
                w = logz_philox((unsigned int) (j0 / 4), (unsigned int) (first + r), (unsigned int) step,
                                LOGZ_TAG_HIDDEN, k0, k1);
            }
            int count = hn - j0 < 4 ? hn - j0 : 4;
            float us[4];
            float bs[4];
            float out[4];
            logz_load_units(u + r * hn + j0, count, vector && count == 4, us);
            logz_load_units(b + j0, count, vector && count == 4, bs);
            for (int q = 0; q < count; q++) {
                double field = (double) (us[q] + bs[q]);
                double zTo = to * field;
                double t = exp(-fabs(zTo));
                delta += fmax(zTo, 0.0) + log1p(t) - logz_softplus(from * field);
                if (transition) {
                    float p = (float) (zTo >= 0.0 ? 1.0 / (1.0 + t) : t / (1.0 + t));
                    out[q] = logz_bernoulli(logz_uniform(w.w[q]), p);
                }
            }
            if (transition) {
                logz_store_units(h + r * hn + j0, count, vector && count == 4, out);
            }
        }
        delta = logz_warp_reduce<logz_sum>(delta);
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
        s = logz_warp_reduce<logz_sum>(s);
        double visible = logz_row_dot(x + r * n, n, coefficient, lane);
        if (lane == 0) {
            out[r] = visible + s;
        }
    }
}

// Σ_i value(i) over i < n in the CPU backend's order (rbm_cpu.cpp combine16): lane l < 16 keeps the partial sum
// of i ≡ l (mod 16) in order, then partials l and l + 8, l and l + 4, l and l + 2, 0 and 1 are added; every lane
// gets the sum. Precondition: all 32 lanes call it.
template <typename F>
__device__ __forceinline__ double logz_row_sum16(int n, int lane, F value) {
    double s = 0.0;
    if (lane < 16) {
        for (int i = lane; i < n; i += 16) {
            s = s + value(i);
        }
    }
    s = s + __shfl_down_sync(LOGZ_FULL_MASK, s, 8);
    s = s + __shfl_down_sync(LOGZ_FULL_MASK, s, 4);
    s = s + __shfl_down_sync(LOGZ_FULL_MASK, s, 2);
    s = s + __shfl_down_sync(LOGZ_FULL_MASK, s, 1);
    return __shfl_sync(LOGZ_FULL_MASK, s, 0);
}

// Every level of a ladder, for simulated tempering: logF[r·levels + k] = (1-β_k) a0ᵀx + β_k aᵀx
// + Σ_j softplus(β_k u_j) and slope[r·levels + k] = (a - a0)ᵀx + Σ_j u_j σ(β_k u_j), u_j = u[r, j] + b_j in float32,
// in float32 with float64 sums as fastmath.cuh's logz_level_acc defines them (DESIGN §4 "all levels in float32",
// with its error bound): the CPU backend's bits for the same u. One warp per row: the row's sums once (in the CPU's
// order, logz_row_sum16), then lane l takes levels l, l + 32, ... and walks the hidden units in index order, reading
// u and b in step with the other lanes (one broadcast load per unit). Per unit and level: a float32 exp2 by a
// degree-5 polynomial and one division instead of the float64 exp, log1p and division of a direct softplus, and no
// float64 arithmetic but one multiply and one add per 16 units. A row with a NaN pre-activation gets NaN at every level.
// Launch bounds of 4 blocks of LOGZ_BLOCK per SM: ptxas fits it in 64 registers without spills (84 unbounded), for
// half the warps an SM holds on sm_80 and sm_90 instead of a quarter.
extern "C" __global__ void __launch_bounds__(LOGZ_BLOCK, 4) logz_levels(const float* u, const float* x, int n, int hn, long long rows, const float* a,
                                       const float* a0, const float* b, const double* levelBetas, int levels,
                                       double* logF, double* slope) {
    LOGZ_FOR_EACH_WARP(r, lane, rows) {
        const float* ur = u + r * hn;
        const float* xr = x + r * n;
        double base = logz_row_sum16(n, lane, [&](int i) { return (double) a0[i] * (double) xr[i]; });
        double target = logz_row_sum16(n, lane, [&](int i) { return (double) a[i] * (double) xr[i]; });
        double positive = logz_row_sum16(hn, lane, [&](int j) {
            float uj = ur[j] + b[j];
            return uj > 0.0f ? (double) uj : 0.0;
        });
        double negative = logz_row_sum16(hn, lane, [&](int j) {
            float uj = ur[j] + b[j];
            return uj < 0.0f ? (double) uj : 0.0;
        });
        double nans = logz_row_sum16(hn, lane, [&](int j) {
            float uj = ur[j] + b[j];
            return uj != uj ? 1.0 : 0.0;
        });
        for (int k = lane; k < levels; k += LOGZ_WARP) {
            double beta = levelBetas[k];
            if (nans > 0.0) {
                logF[r * levels + k] = nan("");
                slope[r * levels + k] = nan("");
                continue;
            }
            float betaF = fabsf((float) beta);
            logz_level_acc acc;
            logz_level_begin(&acc);
            for (int j = 0; j < hn; j++) {
                float aj = fabsf(ur[j] + b[j]);
                logz_level_add(&acc, aj, aj * LOGZ_LOG2E_F, betaF, j);
            }
            double logP = logz_level_finish(&acc);
            double maxPart = beta >= 0.0 ? positive : negative;
            logF[r * levels + k] = (1.0 - beta) * base + beta * target + beta * maxPart + logP;
            slope[r * levels + k] = target - base + (beta >= 0.0 ? maxPart - acc.weighted : maxPart + acc.weighted);
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
    return (double) a + logz_warp_reduce<logz_sum>(s);
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
