// Importance-sampled likelihood of the logistic random-intercept GLMM (org.logz.model.Glmm), the inner loop of
// AISEL: for every θ-particle r and group i, the Laplace mode û and scale s of the group's intercept by Newton's
// method from u = 0 (at most LOGZ_GLMM_NEWTON steps, stopping below 1e-10 (1 + |u|), halving steps that lower the
// log joint g), then the log mean of N importance weights of u = û + s ξ (laplace) or u = τ ξ (prior), ξ normal
// q = i·N + j of (r, step, LATENT) (logz_stream_normal), by a running log-sum-exp over j in order; then the groups'
// logs summed in order per particle. The arithmetic follows Glmm.java step by step (float64 throughout; the
// cross-validation tolerance covers nvcc's fused multiply-adds).
//
// logz_glmm_groups: one thread per (particle, group) pair, rows·m items, any grid, blocks of LOGZ_BLOCK; writes
//   group_log[r·m + i]. Data sorted by group: x (n × p, float64), y (n, int), offsets (m + 1, int).
// logz_glmm_sum: one thread per particle; out[r] = Σ_i group_log[r·m + i].
// Deterministic; no shared memory. Cost: rows·(n·(Newton steps + N)) transcendental pairs, no reuse between
// pairs; the Newton part is the paper's τ_0, the draws its N·τ_1.
#include "common.cuh"

#define LOGZ_GLMM_NEWTON 50
#define LOGZ_GLMM_LOG_SQRT_2PI 0.9189385332046727

__device__ double logz_glmm_predictor(const double* x, const float* theta, int p, int j) {
    double s = 0.0;
    for (int k = 0; k < p; k++) {
        s += x[(long long) j * p + k] * (double) theta[k];
    }
    return s;
}

__device__ double logz_glmm_loglik(const double* x, const int* y, const float* theta, int p, int first, int last,
                                   double u) {
    double s = 0.0;
    for (int j = first; j < last; j++) {
        double eta = logz_glmm_predictor(x, theta, p, j) + u;
        s += (double) y[j] * eta - logz_softplus(eta);
    }
    return s;
}

__device__ double logz_glmm_joint(const double* x, const int* y, const float* theta, int p, int first, int last,
                                  double u, double tau) {
    return logz_glmm_loglik(x, y, theta, p, first, last, u) - 0.5 * (u / tau) * (u / tau) - log(tau)
            - LOGZ_GLMM_LOG_SQRT_2PI;
}

// {û, s} of one group (Glmm.laplace).
__device__ void logz_glmm_laplace(const double* x, const int* y, const float* theta, int p, int first, int last,
                                  double tau, double* mode, double* scale) {
    double precision = 1.0 / (tau * tau);
    double u = 0.0;
    double value = logz_glmm_joint(x, y, theta, p, first, last, u, tau);
    for (int step = 0; step < LOGZ_GLMM_NEWTON; step++) {
        double gradient = -u * precision;
        double curvature = precision;
        for (int j = first; j < last; j++) {
            double s = logz_sigmoid(logz_glmm_predictor(x, theta, p, j) + u);
            gradient += (double) y[j] - s;
            curvature += s * (1.0 - s);
        }
        double delta = gradient / curvature;
        double next = u + delta;
        double next_value = logz_glmm_joint(x, y, theta, p, first, last, next, tau);
        for (int h = 0; h < 30 && !(next_value >= value); h++) {
            delta *= 0.5;
            next = u + delta;
            next_value = logz_glmm_joint(x, y, theta, p, first, last, next, tau);
        }
        if (!(next_value >= value)) {
            break;
        }
        u = next;
        value = next_value;
        if (fabs(delta) < 1e-10 * (1.0 + fabs(u))) {
            break;
        }
    }
    double curvature = precision;
    for (int j = first; j < last; j++) {
        double s = logz_sigmoid(logz_glmm_predictor(x, theta, p, j) + u);
        curvature += s * (1.0 - s);
    }
    *mode = u;
    *scale = 1.0 / sqrt(curvature);
}

// group_log[r·m + i] = log of the mean importance weight of group i for particle r; laplace != 0 for the Laplace
// proposal, the prior otherwise. theta: rows × cols floats, θ in the first p + 1 columns.
extern "C" __global__ void logz_glmm_groups(const float* theta, long long rows, int cols, int p, int m,
                                            const double* x, const int* y, const int* offsets, int inner, int laplace,
                                            unsigned int k0, unsigned int k1, int step, double* group_log) {
    LOGZ_FOR_EACH(item, rows * m) {
        long long r = item / m;
        int i = (int) (item % m);
        const float* th = theta + r * cols;
        double tau = exp((double) th[p]);
        int first = offsets[i];
        int last = offsets[i + 1];
        double center = 0.0;
        double scale = tau;
        if (laplace) {
            logz_glmm_laplace(x, y, th, p, first, last, tau, &center, &scale);
        }
        double max = -INFINITY;
        double total = 0.0;
        double log_scale = log(scale);
        for (int j = 0; j < inner; j++) {
            double xi = logz_stream_normal((long long) i * inner + j, k0, k1, r, step, LOGZ_TAG_LATENT);
            double u = center + scale * xi;
            double log_weight = laplace
                    ? logz_glmm_joint(x, y, th, p, first, last, u, tau) + 0.5 * xi * xi + log_scale + LOGZ_GLMM_LOG_SQRT_2PI
                    : logz_glmm_loglik(x, y, th, p, first, last, u);
            if (log_weight > max) {
                total = total * exp(max - log_weight) + 1.0;
                max = log_weight;
            } else {
                total += exp(log_weight - max);
            }
        }
        group_log[item] = max + log(total / inner);
    }
}

extern "C" __global__ void logz_glmm_sum(const double* group_log, long long rows, int m, double* out) {
    LOGZ_FOR_EACH(r, rows) {
        double sum = 0.0;
        for (int i = 0; i < m; i++) {
            sum += group_log[r * m + i];
        }
        out[r] = sum;
    }
}
