// Point likelihoods of the Gaussian mixture posterior (org.logz.model.mixture.Mixture), the inner loop of data
// annealing's moves (DESIGN §5): for every θ-particle r, out[r] = Σ_{k=from}^{to-1} log p(y_{points[k]} | θ_r), the
// terms added in k's order from +0, with log p(y_i | μ) = log Σ_c w_c N(y_i; μ_c, σ² I) as Mixture.logLikelihood
// computes it: e_c = log w_c - sq_c / (2σ·σ), sq_c the squared distance summed over coordinates in order, then
// max_c e_c + log Σ_c exp(e_c - max) - norm, norm = d (log σ + ½ log 2π) passed from the host. Two passes over the
// components (the maximum, then the sum) recompute e_c instead of keeping K of them per thread.
// Inputs: theta (rows × cols floats, μ_c coordinate j at column c·d + j), y (n × d, float64), log_w (K, float64),
// points (n, int). One thread per particle, any grid, blocks of LOGZ_BLOCK; deterministic; no shared memory.
// Agrees with the host to the rounding of exp and log (nvcc's --fmad=false keeps the products and sums apart).
#include "common.cuh"

__device__ __forceinline__ double logz_mixture_exponent(const float* th, const double* yi, double log_w, int c, int d,
                                                        double sigma) {
    double sq = 0.0;
    for (int j = 0; j < d; j++) {
        double diff = yi[j] - (double) th[c * d + j];
        sq += diff * diff;
    }
    return log_w - sq / (2 * sigma * sigma);
}

extern "C" __global__ void logz_mixture_points(const float* theta, long long rows, int cols, const double* y,
                                               const double* log_w, int components, int d, double sigma, double norm,
                                               const int* points, int from, int to, double* out) {
    LOGZ_FOR_EACH(r, rows) {
        const float* th = theta + r * cols;
        double sum = 0.0;
        for (int k = from; k < to; k++) {
            const double* yi = y + (long long) points[k] * d;
            double max = -INFINITY;
            for (int c = 0; c < components; c++) {
                max = fmax(max, logz_mixture_exponent(th, yi, log_w[c], c, d, sigma));
            }
            double total = 0.0;
            for (int c = 0; c < components; c++) {
                total += exp(logz_mixture_exponent(th, yi, log_w[c], c, d, sigma) - max);
            }
            sum += max + log(total) - norm;
        }
        out[r] = sum;
    }
}
