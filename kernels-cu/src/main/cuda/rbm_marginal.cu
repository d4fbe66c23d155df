// The RBM's marginal path over the hidden units (Habeck 2017, §6.3; DESIGN §5), the arithmetic of
// org.logz.cpu.MarginalChain: a chain is a row of h (H floats, 0/1), p_β(h) ∝ exp(β·(−F(h))) with
// −F(h) = bᵀh + Σ_i softplus(g_i), g = a + W h; log f_β = β·(−F) relative to the uniform base.
//
// Inputs from the host, float64: `p` = [a (N) | b (H)], `tables` = [W by column | D⁺ | D⁻], each N·H with
// column j at j·N, D^± = expm1(±W) (MarginalRbm.flipTable). Scratch: e = exp(g) and s = σ(g) = e / (1 + e), N
// doubles per row each, laid out row-fastest (e[i·rows + r]) so that a warp's accesses to one i coalesce; rows ≥ the
// launch's rows. The model bounds |g| by 600 (MarginalRbm.MAX_PREACTIVATION), so e neither overflows nor underflows.
//
// One thread per chain, grid-stride, any grid of LOGZ_BLOCK-thread blocks. All hidden units interact through
// F, so no checkerboard exists: each thread flips its chain's units one after the other. A transition is a
// sweep of single-unit Metropolis flips, units 0 .. H−1 (H−1 .. 0 when annealing towards smaller β): flip j
// gains Δ = ±b_j + Σ_i log(1 + s_i D^±_ij) (the product logged every `span` factors) and is accepted when
// log u < β Δ, u word j mod 4 of Philox block (j/4, particle, step, MODEL); an accepted flip multiplies e by
// 1 + D^±_:j (as e + e·D) and refreshes s, with no exponential. Base draws are fair coins from block (BASE_BLOCK + j/4, particle, step, MODEL).
// Preconditions: e and s are computed afresh from h at the start of every launch (so no drift carries over).
// Deterministic: a thread's arithmetic is sequential in the order of the Java code (built with --fmad=false),
// so the results do not depend on the launch shape and agree with the CPU to the rounding of exp and log.
#include "common.cuh"

#define LOGZ_MARGINAL_BASE_BLOCK 268435456u

// g = a + Σ_{j: h_j = 1} W_:j (columns in order) of row r into e; returns −F(h) = bᵀh + Σ_i softplus(g_i), then
// turns g into e = exp(g) and s = e / (1 + e).
__device__ double logz_marginal_load(const float* h, long long rows, long long r, int n, int hidden, const double* p,
                                     const double* tables, double* e, double* s) {
    for (int i = 0; i < n; i++) {
        e[(long long) i * rows + r] = p[i];
    }
    for (int j = 0; j < hidden; j++) {
        if (h[j] != 0.0f) {
            const double* column = tables + (long long) j * n;
            for (int i = 0; i < n; i++) {
                e[(long long) i * rows + r] += column[i];
            }
        }
    }
    double f = 0.0;
    for (int j = 0; j < hidden; j++) {
        f += p[n + j] * (double) h[j];
    }
    for (int i = 0; i < n; i++) {
        f += logz_softplus(e[(long long) i * rows + r]);
    }
    for (int i = 0; i < n; i++) {
        long long at = (long long) i * rows + r;
        e[at] = exp(e[at]);
        s[at] = e[at] / (1.0 + e[at]);
    }
    return f;
}

// `transitions` sweeps at beta of row r (h points at the row), e and s loaded.
__device__ void logz_marginal_sweeps(float* h, long long rows, long long r, int n, int hidden, int span,
                                     const double* p, const double* tables, double beta, bool reversed,
                                     int transitions, double* e, double* s, unsigned int k0, unsigned int k1,
                                     long long particle, int step) {
    long long size = (long long) n * hidden;
    for (int t = 0; t < transitions; t++) {
        logz_philox_out u;
        int block = -1;
        for (int q = 0; q < hidden; q++) {
            int j = reversed ? hidden - 1 - q : q;
            if ((j >> 2) != block) {
                block = j >> 2;
                u = logz_philox((unsigned int) block, (unsigned int) particle, (unsigned int) (step + t),
                                LOGZ_TAG_MODEL, k0, k1);
            }
            int sign = h[j] == 0.0f ? 1 : -1;
            const double* d = tables + (sign > 0 ? size : 2 * size) + (long long) j * n;
            double gain = (double) sign * p[n + j];
            for (int from = 0; from < n; from += span) {
                double product = 1.0;
                int to = from + span < n ? from + span : n;
                for (int i = from; i < to; i++) {
                    product *= 1.0 + s[(long long) i * rows + r] * d[i];
                }
                gain += log(product);
            }
            if (log((double) logz_uniform(u.w[j & 3])) < beta * gain) {
                h[j] = sign > 0 ? 1.0f : 0.0f;
                for (int i = 0; i < n; i++) {
                    long long at = (long long) i * rows + r;
                    e[at] += e[at] * d[i];
                    s[at] = e[at] / (1.0 + e[at]);
                }
            }
        }
    }
}

// Fair coins, row r being particle first + r.
extern "C" __global__ void logz_rbm_marginal_base(float* h, long long rows, int hidden, unsigned int k0,
                                                  unsigned int k1, int step, long long first) {
    LOGZ_FOR_EACH(e, rows * hidden) {
        long long r = e / hidden;
        int j = (int) (e - r * hidden);
        logz_philox_out u = logz_philox(LOGZ_MARGINAL_BASE_BLOCK + (unsigned int) (j / 4), (unsigned int) (first + r),
                                        (unsigned int) step, LOGZ_TAG_MODEL, k0, k1);
        h[e] = logz_uniform(u.w[j & 3]) < 0.5f ? 1.0f : 0.0f;
    }
}

// out[r] = β·(−F(h_r)).
extern "C" __global__ void logz_rbm_marginal_log_density(const float* h, long long rows, int n, int hidden,
                                                         const double* p, const double* tables, double* e, double* s,
                                                         double beta, double* out) {
    LOGZ_FOR_EACH(r, rows) {
        const float* row = h + r * hidden;
        out[r] = beta * logz_marginal_load(row, rows, r, n, hidden, p, tables, e, s);
    }
}

// logW[r] += (to − from)·(−F(h_r)), then `transitions` sweeps at β = to, reversed when to < from.
extern "C" __global__ void logz_rbm_marginal_anneal(float* h, long long rows, int n, int hidden, int span,
                                                    const double* p, const double* tables, double from, double to,
                                                    double* logW, int transitions, double* e, double* s,
                                                    unsigned int k0, unsigned int k1, int step, long long first) {
    LOGZ_FOR_EACH(r, rows) {
        float* row = h + r * hidden;
        logW[r] += (to - from) * logz_marginal_load(row, rows, r, n, hidden, p, tables, e, s);
        logz_marginal_sweeps(row, rows, r, n, hidden, span, p, tables, to, to < from, transitions, e, s, k0, k1,
                             first + r, step);
    }
}

// `transitions` sweeps, row r at betas[r] when given, else at beta.
extern "C" __global__ void logz_rbm_marginal_transition(float* h, long long rows, int n, int hidden, int span,
                                                        const double* p, const double* tables, const double* betas,
                                                        double beta, int transitions, double* e, double* s,
                                                        unsigned int k0, unsigned int k1, int step, long long first) {
    LOGZ_FOR_EACH(r, rows) {
        float* row = h + r * hidden;
        logz_marginal_load(row, rows, r, n, hidden, p, tables, e, s);
        logz_marginal_sweeps(row, rows, r, n, hidden, span, p, tables, betas != 0 ? betas[r] : beta, false,
                             transitions, e, s, k0, k1, first + r, step);
    }
}

// logF[r·levels + k] = β_k·(−F(h_r)), slope[r·levels + k] = −F(h_r).
extern "C" __global__ void logz_rbm_marginal_levels(const float* h, long long rows, int n, int hidden,
                                                    const double* p, const double* tables, double* e, double* s,
                                                    const double* level_betas, int levels, double* logF,
                                                    double* slope) {
    LOGZ_FOR_EACH(r, rows) {
        const float* row = h + r * hidden;
        double f = logz_marginal_load(row, rows, r, n, hidden, p, tables, e, s);
        for (int k = 0; k < levels; k++) {
            logF[r * levels + k] = level_betas[k] * f;
            slope[r * levels + k] = f;
        }
    }
}
