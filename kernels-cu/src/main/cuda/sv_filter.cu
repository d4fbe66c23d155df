// Bootstrap particle filter of the stochastic volatility model (org.logz.model.StochasticVolatility), the inner
// loop of AISEL: one thread per θ-particle r runs the whole filter over T observations with N particles, in the
// order of StochasticVolatility.logLikelihoodEstimate: stationary draws at t = 0, then per step systematic
// resampling with the uniform of block (t, r, step, LATENT_RESAMPLE), the AR(1) move with ξ normal q = t·N + j of
// (r, step, LATENT), and the log mean of the weights -½ (log 2π + h + y_t² e^{-h}) added to the estimate.
// Scratch: h, next, log_weight, each rows × N doubles, particle r's at offset r·N (per-thread rows, so accesses
// are not coalesced; one thread per θ-particle keeps the filter sequential and the bits equal to the CPU's, at
// the price of occupancy below ~10^4 θ-particles).
// Any grid, blocks of LOGZ_BLOCK; deterministic; no shared memory.
#include "common.cuh"

#define LOGZ_SV_LOG_2PI 1.8378770664093453

// Java's Math.max: NaN when either argument is NaN (fmax would drop it), so that a NaN weight fails the filter
// on both backends.
__device__ __forceinline__ double logz_sv_max(double a, double b) {
    return (a != a || b != b) ? a + b : fmax(a, b);
}

extern "C" __global__ void logz_sv_filter(const float* theta, long long rows, int cols, const double* y, int length,
                                          int inner, unsigned int k0, unsigned int k1, int step, double* h_all,
                                          double* next_all, double* log_weight_all, double* out) {
    LOGZ_FOR_EACH(r, rows) {
        const float* th = theta + r * cols;
        double* h = h_all + r * inner;
        double* next = next_all + r * inner;
        double* log_weight = log_weight_all + r * inner;
        double mu = (double) th[0];
        double phi = tanh((double) th[1]);
        double sigma = exp((double) th[2]);
        double stationary = sigma * cosh((double) th[1]);
        double sum = 0.0;
        int failed = 0;
        for (int t = 0; t < length && !failed; t++) {
            if (t == 0) {
                for (int j = 0; j < inner; j++) {
                    h[j] = mu + stationary * logz_stream_normal(j, k0, k1, r, step, LOGZ_TAG_LATENT);
                }
            } else {
                logz_philox_out w = logz_philox((unsigned int) t, (unsigned int) r, (unsigned int) step,
                                                LOGZ_TAG_LATENT_RESAMPLE, k0, k1);
                double u = logz_uniform53(w.w[0], w.w[1]);
                double max = -INFINITY;
                for (int j = 0; j < inner; j++) {
                    max = logz_sv_max(max, log_weight[j]);
                }
                double total = 0.0;
                for (int j = 0; j < inner; j++) {
                    total += exp(log_weight[j] - max);
                }
                double cumulative = 0.0;
                int k = 0;
                for (int j = 0; j < inner && k < inner; j++) {
                    cumulative += exp(log_weight[j] - max) / total;
                    while (k < inner && (u + k) / inner < cumulative) {
                        next[k++] = h[j];
                    }
                }
                while (k < inner) {
                    next[k++] = h[inner - 1];
                }
                for (int j = 0; j < inner; j++) {
                    h[j] = mu + phi * (next[j] - mu)
                            + sigma * logz_stream_normal((long long) t * inner + j, k0, k1, r, step, LOGZ_TAG_LATENT);
                }
            }
            double max = -INFINITY;
            double yy = y[t] * y[t];
            for (int j = 0; j < inner; j++) {
                log_weight[j] = -0.5 * (LOGZ_SV_LOG_2PI + h[j] + yy * exp(-h[j]));
                max = logz_sv_max(max, log_weight[j]);
            }
            if (!(max > -INFINITY)) {
                failed = 1;
            } else {
                double total = 0.0;
                for (int j = 0; j < inner; j++) {
                    total += exp(log_weight[j] - max);
                }
                sum += max + log(total / inner);
            }
        }
        out[r] = failed ? -INFINITY : sum;
    }
}
