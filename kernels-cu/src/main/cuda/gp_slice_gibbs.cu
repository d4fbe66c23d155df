// GP classification on the ARM paper's data-annealing path (Appendix A), the arithmetic of
// org.logz.kernel.GpcSteps and CpuGpcKernel: a particle is a row of z (n floats, 0 for cases not
// entered). The host passes the precision S = S^(m) (m x m, float64, row-major, grown on the host by
// the block inverse) and, for a move, the sweeps' case orders (one row of `active` ints per sweep,
// shared by all particles). One thread per particle, grid-stride; every thread's arithmetic is
// sequential in float64 with z rounded to float after each update, so results do not depend on the
// launch shape (deterministic). log Φ follows org.logz.numeric.Normal (series above -3, Laplace's
// continued fraction below; normal.cuh), so the device and the CPU agree to rounding of exp and log,
// not bitwise. A move keeps μ current through v = S z and rank-1 updates (m² multiply-adds per sweep
// per particle, the same as the GEMV S z it replaces; the float64 scratch is `active` doubles per row).
#include "common.cuh"
#include "normal.cuh"


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
// Philox block (k, particle, step + t, SLICE), k the position in the sweep. v = S z is kept per row in
// `v` (active doubles per row, v[j·rows + r], so a warp's accesses coalesce): computed afresh column by
// column, then every update of z_i adds δ S_i: (GpcSteps.precisionTimes, rankOneUpdate).
extern "C" __global__ void logz_gpc_move(float* z, long long rows, int n, int active, const double* s,
                                         const int* orders, const int* labels, int sweeps, double* v, unsigned int k0,
                                         unsigned int k1, int step, long long first) {
    LOGZ_FOR_EACH(r, rows) {
        float* row = z + r * n;
        for (int j = 0; j < active; j++) {
            v[(long long) j * rows + r] = 0.0;
        }
        for (int j = 0; j < active; j++) {
            double zj = (double) row[j];
            const double* sj = s + (long long) j * active;
            for (int q = 0; q < active; q++) {
                v[(long long) q * rows + r] += zj * sj[q];
            }
        }
        for (int t = 0; t < sweeps; t++) {
            for (int k = 0; k < active; k++) {
                int i = orders[(long long) t * active + k];
                const double* si = s + (long long) i * active;
                double sii = si[i];
                logz_philox_out u = logz_philox((unsigned int) k, (unsigned int) (first + r), (unsigned int) (step + t),
                                                LOGZ_TAG_SLICE, k0, k1);
                double u1 = logz_uniform53(u.w[0], u.w[1]);
                double u2 = logz_uniform53(u.w[2], u.w[3]);
                float old = row[i];
                double mu = -(v[(long long) i * rows + r] - sii * (double) old) / sii;
                double d = (double) old - mu;
                double width = sqrt(d * d - 2.0 / sii * log(u1));
                int y = labels[i];
                double lo = (y < 0 || mu > width) ? mu - width : 0.0;
                double hi = (y > 0 || mu < -width) ? mu + width : 0.0;
                row[i] = (float) ((hi - lo) * u2 + lo);
                double delta = (double) row[i] - (double) old;
                for (int q = 0; q < active; q++) {
                    v[(long long) q * rows + r] += delta * si[q];
                }
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
