// The Gaussian toy of Habeck (2017, §4): one float per particle, log f_β(x) =
// -(1-β)(x-μ0)²/(2σ0²) - β(x-μ1)²/(2σ1²) in float64, kernel moves x' = τx + (1-τ)μ + √(1-τ²) σ ξ with
// ξ a Box-Muller normal from the 53-bit uniforms of Philox block (0, particle, step, GAUSSIAN), row r
// being particle first + r (as the CPU backend). The host passes τ, μ, σ of the target β. Blocks of LOGZ_BLOCK, any grid, one thread
// per particle; deterministic.
#include "common.cuh"


__device__ __forceinline__ double logz_normal(unsigned int k0, unsigned int k1, long long particle, int step) {
    logz_philox_out u = logz_philox(0u, (unsigned int) particle, (unsigned int) step, LOGZ_TAG_GAUSSIAN, k0, k1);
    double radius = sqrt(-2.0 * log(logz_uniform53(u.w[0], u.w[1])));
    return radius * cos(6.283185307179586 * logz_uniform53(u.w[2], u.w[3]));
}

__device__ __forceinline__ double logz_toy_log_density(double x, double beta, double mu0, double sigma0, double mu1,
                                                       double sigma1) {
    double d0 = x - mu0;
    double d1 = x - mu1;
    return -(1.0 - beta) * d0 * d0 / (2.0 * sigma0 * sigma0) - beta * d1 * d1 / (2.0 * sigma1 * sigma1);
}

// x ~ N(mu, sigma²).
extern "C" __global__ void logz_toy_base(float* x, long long rows, double mu, double sigma, unsigned int k0,
                                         unsigned int k1, int step, long long first) {
    LOGZ_FOR_EACH(r, rows) {
        x[r] = (float) (mu + sigma * logz_normal(k0, k1, first + r, step));
    }
}

// logW += log f_to(x) - log f_from(x); then, when `transition`, the move with (tau, mean, sigma) of β = to.
extern "C" __global__ void logz_toy_anneal(float* x, long long rows, double mu0, double sigma0, double mu1,
                                           double sigma1, double from, double to, double* logW, int transition,
                                           double tau, double mean, double sigma, unsigned int k0, unsigned int k1,
                                           int step, long long first) {
    LOGZ_FOR_EACH(r, rows) {
        double v = (double) x[r];
        logW[r] += logz_toy_log_density(v, to, mu0, sigma0, mu1, sigma1)
                - logz_toy_log_density(v, from, mu0, sigma0, mu1, sigma1);
        if (transition) {
            x[r] = (float) (tau * v + (1.0 - tau) * mean
                    + sqrt(1.0 - tau * tau) * sigma * logz_normal(k0, k1, first + r, step));
        }
    }
}

// One move with (tau, mean, sigma).
extern "C" __global__ void logz_toy_move(float* x, long long rows, double tau, double mean, double sigma,
                                         unsigned int k0, unsigned int k1, int step, long long first) {
    LOGZ_FOR_EACH(r, rows) {
        double v = (double) x[r];
        x[r] = (float) (tau * v + (1.0 - tau) * mean + sqrt(1.0 - tau * tau) * sigma * logz_normal(k0, k1, first + r, step));
    }
}

// out[r] = log f_β(x_r).
extern "C" __global__ void logz_toy_log_density_kernel(const float* x, long long rows, double mu0, double sigma0,
                                                       double mu1, double sigma1, double beta, double* out) {
    LOGZ_FOR_EACH(r, rows) {
        out[r] = logz_toy_log_density((double) x[r], beta, mu0, sigma0, mu1, sigma1);
    }
}

// logF[r·levels + k] = log f_{β_k}(x_r) and slope[r·levels + k] = log f_1(x_r) - log f_0(x_r).
extern "C" __global__ void logz_toy_levels(const float* x, long long rows, double mu0, double sigma0, double mu1,
                                           double sigma1, const double* level_betas, int levels, double* logF,
                                           double* slope) {
    LOGZ_FOR_EACH(r, rows) {
        double v = (double) x[r];
        double d0 = v - mu0;
        double d1 = v - mu1;
        double s = d0 * d0 / (2.0 * sigma0 * sigma0) - d1 * d1 / (2.0 * sigma1 * sigma1);
        for (int k = 0; k < levels; k++) {
            logF[r * levels + k] = logz_toy_log_density(v, level_betas[k], mu0, sigma0, mu1, sigma1);
            slope[r * levels + k] = s;
        }
    }
}
