// GP classification on the ARM paper's data-annealing path (Appendix A), the arithmetic of
// org.logz.kernel.GpcSteps and CpuGpcKernel: a particle is a row of z (n floats, 0 for cases not
// entered). The host passes the precision S = S^(m) (m x m, float64, row-major, grown on the host by
// the block inverse) and, for a move, the sweeps' case orders (one row of `active` ints per sweep,
// shared by all particles). One thread per particle, grid-stride; every thread's arithmetic is
// sequential in float64 with z rounded to float after each update, so results do not depend on the
// launch shape (deterministic). log Φ follows org.logz.numeric.Normal (series above -3, Laplace's
// continued fraction below), so the device and the CPU agree to rounding of exp and log, not bitwise.
// Departure from the issue's sketch: μ_i is a fresh dot product per update (O(m), as a rank-1 update
// of S z would be) rather than a kept vector, which needs no per-particle scratch.
#include "common.cuh"

#define LOGZ_TAG_SLICE 19

__device__ double logz_log_pdf(double x) {
    return -0.5 * x * x - 0.9189385332046727;
}

// Mills' ratio (1 - Φ(t)) / φ(t) for t >= 3 (modified Lentz on t + 1/(t + 2/(t + ...))).
__device__ double logz_mills(double t) {
    if (t > 1e300) {
        return 0.0;
    }
    double tiny = 1e-300;
    double f = t;
    double c = f;
    double d = 0.0;
    for (int k = 1; k < 500; k++) {
        d = t + k * d;
        d = fabs(d) < tiny ? tiny : d;
        c = t + k / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        double delta = c * d;
        f *= delta;
        if (fabs(delta - 1.0) < 1e-16) {
            break;
        }
    }
    return 1.0 / f;
}

__device__ double logz_normal_series(double x) {
    double term = x;
    double sum = x;
    double x2 = x * x;
    for (int k = 1; k < 200 && fabs(term) > 1e-17 * fabs(sum); k++) {
        term *= x2 / (2 * k + 1);
        sum += term;
    }
    return sum;
}

__device__ double logz_log_cdf(double x) {
    if (x <= -3.0) {
        return logz_log_pdf(x) + log(logz_mills(-x));
    }
    if (x < 3.0) {
        return log(0.5 + exp(logz_log_pdf(x)) * logz_normal_series(x));
    }
    return log1p(-exp(logz_log_pdf(x)) * logz_mills(x));
}

__device__ double logz_pdf_over_cdf(double x) {
    if (x <= -3.0) {
        return 1.0 / logz_mills(-x);
    }
    return exp(logz_log_pdf(x) - logz_log_cdf(x));
}

// N(m, sd²) truncated to y z > 0 by inverting the upper tail (GpcSteps.truncatedNormal).
__device__ double logz_truncated_normal(double m, double sd, int y, double u) {
    double a = -y * m / sd;
    double target = log(u) + logz_log_cdf(-a);
    double lo = a;
    double hi = fmax(a, 0.0) + sqrt(fmax(0.0, -2.0 * target)) + 2.0;
    while (logz_log_cdf(-hi) > target) {
        hi += hi - lo + 1.0;
    }
    double t = 0.5 * (lo + hi);
    for (int i = 0; i < 200; i++) {
        double g = logz_log_cdf(-t) - target;
        if (g > 0) {
            lo = t;
        } else {
            hi = t;
        }
        double next = t + g / logz_pdf_over_cdf(-t);
        if (!(next > lo && next < hi)) {
            next = 0.5 * (lo + hi);
        }
        if (fabs(next - t) <= 1e-14 * (1.0 + fabs(t))) {
            t = next;
            break;
        }
        t = next;
    }
    return m + y * sd * t;
}

// {m, σ} of z_v given z_[v] under S = S^(v+1) (A.3), the sum in index order.
__device__ void logz_gpc_conditional(const float* z, const double* s, int v, double* mean, double* sd) {
    int m = v + 1;
    double acc = 0.0;
    for (int i = 0; i < v; i++) {
        acc += s[(long long) i * m + v] * (double) z[i];
    }
    double svv = s[(long long) v * m + v];
    *mean = -acc / svv;
    *sd = 1.0 / sqrt(svv);
}

// `sweeps` slice-sampled Gibbs sweeps (A.1-A.2) over the first `active` cases of rows [0, rows)
// (row r is particle first + r); sweep t visits cases in orders[t * active ..] with uniforms from
// Philox block (k, particle, step + t, SLICE), k the position in the sweep.
extern "C" __global__ void logz_gpc_move(float* z, long long rows, int n, int active, const double* s,
                                         const int* orders, const int* labels, int sweeps, unsigned int k0,
                                         unsigned int k1, int step, long long first) {
    LOGZ_FOR_EACH(r, rows) {
        float* row = z + r * n;
        for (int t = 0; t < sweeps; t++) {
            for (int k = 0; k < active; k++) {
                int i = orders[(long long) t * active + k];
                double sii = s[(long long) i * active + i];
                double acc = 0.0;
                for (int j = 0; j < active; j++) {
                    if (j != i) {
                        acc += s[(long long) i * active + j] * (double) row[j];
                    }
                }
                double mu = -acc / sii;
                logz_philox_out u = logz_philox((unsigned int) k, (unsigned int) (first + r), (unsigned int) (step + t),
                                                LOGZ_TAG_SLICE, k0, k1);
                double u1 = logz_uniform53(u.w[0], u.w[1]);
                double u2 = logz_uniform53(u.w[2], u.w[3]);
                double d = (double) row[i] - mu;
                double v = sqrt(d * d - 2.0 / sii * log(u1));
                int y = labels[i];
                double lo = (y < 0 || mu > v) ? mu - v : 0.0;
                double hi = (y > 0 || mu < -v) ? mu + v : 0.0;
                row[i] = (float) ((hi - lo) * u2 + lo);
            }
        }
    }
}

// logW[r] += log Φ(y m / σ) for case v (the smooth step, A.3).
extern "C" __global__ void logz_gpc_smooth(const float* z, long long rows, int n, int v, const double* s, int y,
                                           double* logW) {
    LOGZ_FOR_EACH(r, rows) {
        double mean, sd;
        logz_gpc_conditional(z + r * n, s, v, &mean, &sd);
        logW[r] += logz_log_cdf(y * mean / sd);
    }
}

// z_v ~ N(m, σ²) truncated to y z_v > 0 with the uniform of Philox block (0, particle, step, AUGMENT).
extern "C" __global__ void logz_gpc_augment(float* z, long long rows, int n, int v, const double* s, int y,
                                            unsigned int k0, unsigned int k1, int step, long long first) {
    LOGZ_FOR_EACH(r, rows) {
        double mean, sd;
        logz_gpc_conditional(z + r * n, s, v, &mean, &sd);
        logz_philox_out u = logz_philox(0u, (unsigned int) (first + r), (unsigned int) step, LOGZ_TAG_AUGMENT, k0, k1);
        z[r * n + v] = (float) logz_truncated_normal(mean, sd, y, logz_uniform53(u.w[0], u.w[1]));
    }
}
