// Hamiltonian Monte Carlo on the Gaussian mixture's tempered path (RTS §4.1 and appendix E; DESIGN §5, "HMC" and
// "Gaussian mixture"), the arithmetic of org.logz.kernel.Hmc and org.logz.model.gmm.GaussianMixture in the same order:
//   log f_β(x) = (1-β)(-|x|²/(2 s0²)) + β logaddexp(log w - |x-μ|²/(2 s1²), log(1-w) - |x+μ|²/(2 s2²)),
//   μ = (m, ..., m), and its gradient -(1-β) x/s0² - β (r1 (x-μ)/s1² + r2 (x+μ)/s2²), r_c the responsibilities.
// A transition: momenta p_i by Box-Muller on blocks (i/2, particle, step, MODEL); the accept uniform u (words 0-1) and
// the jitter uniform v (words 2-3) of block (LOGZ_HMC_CONTROL, particle, step, MODEL); L = 1 + min(l_max-1, ⌊v l_max⌋)
// when jittered; leapfrog in float64 with the end point rounded to float; accept when log u < H - H' (H' finite).
//
// Inputs: x (rows × d floats, row r of chain first + r), the step size of each row (`eps`, chosen on the host by
// org.logz.kernel.HmcStepSizes), β per row (`betas`) or for all (`beta`). Outputs: x, the accepted transitions of each
// row (`accepted`, as doubles). Scratch: 4·d doubles per row laid out row-fastest (block k, coordinate i of row r at
// ((k·d + i)·rows + r)): the momenta, the current gradient, the proposal and its gradient, so a warp's accesses to one
// coordinate coalesce. One thread per chain, grid-stride, any grid of LOGZ_BLOCK-thread blocks; deterministic (no
// reductions across threads), and equal to the CPU's to the rounding of exp, log, cos and sin.
#include "common.cuh"

#define LOGZ_HMC_CONTROL 1073741824u

// The mixture's parameters: d, the mean coordinate m, the three standard deviations and the two log weights. They
// travel as separate kernel arguments (LOGZ_GMM_ARGS, no struct layout to agree on with the launcher).
struct logz_gmm {
    int d;
    double m, s0, s1, s2, logw1, logw2;
};

#define LOGZ_GMM_ARGS int d, double m, double s0, double s1, double s2, double logw1, double logw2
#define LOGZ_GMM_MAKE const logz_gmm g = {d, m, s0, s1, s2, logw1, logw2}

// log(e^a + e^b) (LogSpace.logAddExp).
__device__ __forceinline__ double logz_gmm_lae(double a, double b) {
    double m = fmax(a, b);
    return m + log1p(exp(-fabs(a - b)));
}

// log f_β at x (x[i·stride]), the target's log f into *target when asked; with grad non-null, the gradient into
// grad[i·gstride].
template <typename T>
__device__ double logz_gmm_log_f(const T* x, long long stride, const logz_gmm& g, double beta, double* grad,
                                 long long gstride, double* target) {
    if (grad != 0) {
        double c = -(1.0 - beta) / (g.s0 * g.s0);
        for (int i = 0; i < g.d; i++) {
            grad[i * gstride] = c * (double) x[i * stride];
        }
    }
    double q1 = 0.0;
    double q2 = 0.0;
    double q0 = 0.0;
    for (int i = 0; i < g.d; i++) {
        double v = (double) x[i * stride];
        q1 += (v - g.m) * (v - g.m);
        q2 += (v + g.m) * (v + g.m);
        q0 += v * v;
    }
    double a = g.logw1 - q1 / (2.0 * g.s1 * g.s1);
    double b = g.logw2 - q2 / (2.0 * g.s2 * g.s2);
    double lf = logz_gmm_lae(a, b);
    if (grad != 0) {
        double r1 = exp(a - lf) / (g.s1 * g.s1);
        double r2 = exp(b - lf) / (g.s2 * g.s2);
        for (int i = 0; i < g.d; i++) {
            double v = (double) x[i * stride];
            grad[i * gstride] -= beta * (r1 * (v - g.m) + r2 * (v + g.m));
        }
    }
    double base = -q0 / (2.0 * g.s0 * g.s0);
    if (target != 0) {
        *target = lf - base;
    }
    return (1.0 - beta) * base + beta * lf;
}

// `transitions` HMC transitions of row r (x points at it) at beta with step size eps; returns the accepted ones.
__device__ int logz_gmm_transitions(float* x, long long rows, long long r, const logz_gmm& g, double beta, double eps,
                                    int leapfrog, int jitter, int transitions, double* scratch, unsigned int k0,
                                    unsigned int k1, long long particle, int step) {
    int d = g.d;
    double* p = scratch + r;
    double* grad = scratch + (long long) d * rows + r;
    double* y = scratch + 2LL * d * rows + r;
    double* gy = scratch + 3LL * d * rows + r;
    double logF = logz_gmm_log_f(x, 1, g, beta, grad, rows, (double*) 0);
    int accepted = 0;
    for (int t = 0; t < transitions; t++) {
        double kinetic = 0.0;
        for (int i = 0; i < d; i++) {
            double pi = logz_stream_normal(i, k0, k1, particle, step + t, LOGZ_TAG_MODEL);
            p[i * rows] = pi;
            kinetic += pi * pi;
        }
        double h = -logF + 0.5 * kinetic;
        logz_philox_out w = logz_philox(LOGZ_HMC_CONTROL, (unsigned int) particle, (unsigned int) (step + t),
                                        LOGZ_TAG_MODEL, k0, k1);
        double logU = log(logz_uniform53(w.w[0], w.w[1]));
        int steps = leapfrog;
        if (jitter) {
            int drawn = (int) (logz_uniform53(w.w[2], w.w[3]) * leapfrog);
            steps = 1 + (drawn < leapfrog - 1 ? drawn : leapfrog - 1);
        }
        for (int i = 0; i < d; i++) {
            y[i * rows] = (double) x[i];
            gy[i * rows] = grad[i * rows];
            p[i * rows] += 0.5 * eps * gy[i * rows];
        }
        for (int l = 1; l <= steps; l++) {
            for (int i = 0; i < d; i++) {
                y[i * rows] += eps * p[i * rows];
                if (l == steps) {
                    y[i * rows] = (double) (float) y[i * rows];
                }
            }
            double lf = logz_gmm_log_f(y, rows, g, beta, gy, rows, (double*) 0);
            double half = l == steps ? 0.5 * eps : eps;
            for (int i = 0; i < d; i++) {
                p[i * rows] += half * gy[i * rows];
            }
            if (l == steps) {
                double k = 0.0;
                for (int i = 0; i < d; i++) {
                    k += p[i * rows] * p[i * rows];
                }
                double proposed = -lf + 0.5 * k;
                // proposed - proposed is 0 exactly when H' is finite (NaN for ±∞ and NaN): the accept rule's finiteness test
                if (proposed - proposed == 0.0 && logU < h - proposed) {
                    for (int i = 0; i < d; i++) {
                        x[i] = (float) y[i * rows];
                        grad[i * rows] = gy[i * rows];
                    }
                    logF = lf;
                    accepted++;
                }
            }
        }
    }
    return accepted;
}

// x = s0 z, z the normals of (particle, step) on tag BASE.
extern "C" __global__ void logz_gmm_base(float* x, long long rows, int d, double s0, unsigned int k0, unsigned int k1,
                                         int step, long long first) {
    LOGZ_FOR_EACH(r, rows) {
        for (int i = 0; i < d; i++) {
            x[r * d + i] = (float) (s0 * logz_stream_normal(i, k0, k1, first + r, step, LOGZ_TAG_BASE));
        }
    }
}

// out[r] = log f_β(x_r).
extern "C" __global__ void logz_gmm_log_density(const float* x, long long rows, LOGZ_GMM_ARGS, double beta, double* out) {
    LOGZ_GMM_MAKE;
    LOGZ_FOR_EACH(r, rows) {
        out[r] = logz_gmm_log_f(x + r * g.d, 1, g, beta, (double*) 0, 0, (double*) 0);
    }
}

// logF[r·levels + k] = log f_{β_k}(x_r), slope[r·levels + k] = log f(x_r) - log f_0(x_r).
extern "C" __global__ void logz_gmm_levels(const float* x, long long rows, LOGZ_GMM_ARGS, const double* level_betas,
                                           int levels, double* logF, double* slope) {
    LOGZ_GMM_MAKE;
    LOGZ_FOR_EACH(r, rows) {
        double s = 0.0;
        logz_gmm_log_f(x + r * g.d, 1, g, 0.0, (double*) 0, 0, &s);
        for (int k = 0; k < levels; k++) {
            logF[r * levels + k] = logz_gmm_log_f(x + r * g.d, 1, g, level_betas[k], (double*) 0, 0, (double*) 0);
            slope[r * levels + k] = s;
        }
    }
}

// logW += log f_to(x) - log f_from(x), then `transitions` transitions at `to`.
extern "C" __global__ void logz_gmm_anneal(float* x, long long rows, LOGZ_GMM_ARGS, double from, double to, double* logW,
                                           int transitions, const double* eps, int leapfrog, int jitter,
                                           double* scratch, double* accepted, unsigned int k0, unsigned int k1,
                                           int step, long long first) {
    LOGZ_GMM_MAKE;
    LOGZ_FOR_EACH(r, rows) {
        float* row = x + r * g.d;
        logW[r] += logz_gmm_log_f(row, 1, g, to, (double*) 0, 0, (double*) 0)
                - logz_gmm_log_f(row, 1, g, from, (double*) 0, 0, (double*) 0);
        accepted[r] = transitions > 0 ? (double) logz_gmm_transitions(row, rows, r, g, to, eps[r], leapfrog, jitter,
                transitions, scratch, k0, k1, first + r, step) : 0.0;
    }
}

// `transitions` transitions of each row at betas[r] (or beta where betas is null).
extern "C" __global__ void logz_gmm_transition(float* x, long long rows, LOGZ_GMM_ARGS, const double* betas, double beta,
                                               int transitions, const double* eps, int leapfrog, int jitter,
                                               double* scratch, double* accepted, unsigned int k0, unsigned int k1,
                                               int step, long long first) {
    LOGZ_GMM_MAKE;
    LOGZ_FOR_EACH(r, rows) {
        accepted[r] = (double) logz_gmm_transitions(x + r * g.d, rows, r, g, betas != 0 ? betas[r] : beta, eps[r],
                leapfrog, jitter, transitions, scratch, k0, k1, first + r, step);
    }
}
