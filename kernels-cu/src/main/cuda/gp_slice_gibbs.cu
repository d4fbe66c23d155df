// GP classification on the ARM paper's data-annealing path (Appendix A), the arithmetic of
// org.logz.kernel.GpcSteps and CpuGpcKernel: a particle is a row of z (n floats, 0 for cases not
// entered). The host passes the precision S = S^(m) (m x m, float64, row-major, grown on the host by
// the block inverse) and, for a move, the sweeps' case orders (one row of `active` ints per sweep,
// shared by all particles). One thread per particle, grid-stride (the smooth and augment steps: one warp per 32
// particles, which stages their rows of z through shared memory); every particle's arithmetic is
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

// For the warp's rows r0 + lane (every lane of the warp calls it with the same r0; rows past `rows` give nothing):
// {m, σ} of z_v given z_[v] under S = S^(v+1) (A.3), each row's sum in case order, as one thread per row would take
// it, but z_[v] read 32 cases at a time through the warp's tile (logz_stage_rows) and walked along the lane's row.
__device__ void logz_gpc_conditional_rows(const float* z, long long r0, long long rows, int n, const double* s, int v,
                                          logz_row_tiles<float>& tile, int warp, int lane, double* mean, double* sd) {
    int m = v + 1;
    double acc = 0.0;
    for (int i0 = 0; i0 < v; i0 += LOGZ_WARP) {
        logz_stage_rows(z, n, r0, rows, i0, v, tile, warp, lane);
        for (int j = 0; r0 + lane < rows && j < LOGZ_WARP && i0 + j < v; j++) {
            acc += s[(long long) (i0 + j) * m + v] * (double) tile[warp][lane][j];
        }
        __syncwarp();
    }
    double svv = s[(long long) v * m + v];
    *mean = -acc / svv;
    *sd = 1.0 / sqrt(svv);
}

// logW[r] += log Φ(y m / σ) for case v (the smooth step, A.3). Blocks of LOGZ_BLOCK threads, a warp per 32 rows.
extern "C" __global__ void logz_gpc_smooth(const float* z, long long rows, int n, int v, const double* s, int y,
                                           double* logW) {
    __shared__ logz_shared<float[LOGZ_BLOCK / LOGZ_WARP][LOGZ_WARP][LOGZ_WARP + 1]> tile;
    int lane = (int) (threadIdx.x & (LOGZ_WARP - 1));
    int warp = (int) (threadIdx.x / LOGZ_WARP);
    for (long long r0 = (long long) blockIdx.x * blockDim.x + warp * LOGZ_WARP; r0 < rows;
         r0 += (long long) gridDim.x * blockDim.x) {
        double mean, sd;
        logz_gpc_conditional_rows(z, r0, rows, n, s, v, tile, warp, lane, &mean, &sd);
        if (r0 + lane < rows) {
            logW[r0 + lane] += logz_log_cdf(y * mean / sd);
        }
    }
}

// z_v ~ N(m, σ²) truncated to y z_v > 0 with the uniform of Philox block (0, particle, step, AUGMENT). Blocks of
// LOGZ_BLOCK threads, a warp per 32 rows; bounded to 64 registers for four blocks an SM (72 gave three).
extern "C" __global__ void __launch_bounds__(LOGZ_BLOCK, 4) logz_gpc_augment(float* z, long long rows, int n, int v, const double* s, int y,
                                            unsigned int k0, unsigned int k1, int step, long long first) {
    __shared__ logz_shared<float[LOGZ_BLOCK / LOGZ_WARP][LOGZ_WARP][LOGZ_WARP + 1]> tile;
    int lane = (int) (threadIdx.x & (LOGZ_WARP - 1));
    int warp = (int) (threadIdx.x / LOGZ_WARP);
    for (long long r0 = (long long) blockIdx.x * blockDim.x + warp * LOGZ_WARP; r0 < rows;
         r0 += (long long) gridDim.x * blockDim.x) {
        double mean, sd;
        logz_gpc_conditional_rows(z, r0, rows, n, s, v, tile, warp, lane, &mean, &sd);
        long long r = r0 + lane;
        if (r < rows) {
            logz_philox_out u = logz_philox(0u, (unsigned int) (first + r), (unsigned int) step, LOGZ_TAG_AUGMENT, k0,
                                            k1);
            z[r * n + v] = (float) logz_truncated_normal(mean, sd, y, logz_uniform53(u.w[0], u.w[1]));
        }
    }
}
