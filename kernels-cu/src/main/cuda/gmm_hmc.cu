// Hamiltonian Monte Carlo on the Gaussian mixture's tempered path (RTS §4.1 and appendix E; DESIGN §5, "HMC" and
// "Gaussian mixture"), the arithmetic of org.logz.kernel.Hmc and org.logz.model.gmm.GaussianMixture in the same order:
//   log f_β(x) = (1-β)(-|x|²/(2 s0²)) + β logaddexp(log w - |x-μ|²/(2 s1²), log(1-w) - |x+μ|²/(2 s2²)),
//   μ = (m, ..., m), and its gradient -(1-β) x/s0² - β (r1 (x-μ)/s1² + r2 (x+μ)/s2²), r_c the responsibilities.
// The transitions are hmc.cuh's.
//
// Inputs: x (rows × d floats, row r of chain first + r), the step size of each row (`eps`, chosen on the host by
// org.logz.kernel.HmcStepSizes), β per row (`betas`) or for all (`beta`). Outputs: x, the accepted transitions of each
// row (`accepted`, as doubles). Scratch: 4·d doubles per row laid out row-fastest (block k, coordinate i of row r at
// ((k·d + i)·rows + r)): the momenta, the current gradient, the proposal and its gradient, so a warp's accesses to one
// coordinate coalesce. One thread per chain, grid-stride, any grid of LOGZ_BLOCK-thread blocks; deterministic (no
// reductions across threads), and equal to the CPU's to the rounding of exp, log, cos and sin.
#include "hmc.cuh"

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

// The mixture's log f_β and gradient as the functor logz_hmc_transitions takes.
struct logz_gmm_density {
    logz_gmm g;

    template <typename T>
    __device__ double operator()(const T* x, long long stride, double beta, double* grad, long long gstride) const {
        return logz_gmm_log_f(x, stride, g, beta, grad, gstride, (double*) 0);
    }
};

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
        accepted[r] = transitions > 0 ? (double) logz_hmc_transitions(row, rows, r, g.d, logz_gmm_density{g}, to,
                eps[r], leapfrog, jitter, transitions, scratch, k0, k1, first + r, step) : 0.0;
    }
}

// `transitions` transitions of each row at betas[r] (or beta where betas is null).
extern "C" __global__ void logz_gmm_transition(float* x, long long rows, LOGZ_GMM_ARGS, const double* betas, double beta,
                                               int transitions, const double* eps, int leapfrog, int jitter,
                                               double* scratch, double* accepted, unsigned int k0, unsigned int k1,
                                               int step, long long first) {
    LOGZ_GMM_MAKE;
    LOGZ_FOR_EACH(r, rows) {
        accepted[r] = (double) logz_hmc_transitions(x + r * g.d, rows, r, g.d, logz_gmm_density{g},
                betas != 0 ? betas[r] : beta, eps[r], leapfrog, jitter, transitions, scratch, k0, k1, first + r, step);
    }
}
