// GP classification on its tempered path (ARM paper eq. 11; DESIGN §5), the arithmetic of
// org.logz.kernel.GpcEllipse and CpuGpcAnnealingKernel: a chain is a row of x (n floats),
// p_β(x) ∝ N(x; μ, G Gᵀ) exp(β ℓ(x)) with ℓ(x) = Σ_i [log Φ(y_i x_i) + (a_i x_i + b_i) x_i] + c, and a
// transition is one elliptical slice step (Murray, Adams & MacKay 2010, Figure 2).
//
// Inputs from the host: `p` = [μ (n) | a (n) | b (n) | y (n, ±1.0)] and G by columns (`columns`,
// rank × n, column j at j·n), all float64. Scratch: `nu`, n doubles per row: laid out row-fastest (nu[i·rows + r]) in
// logz_gpc_ellipse_base, so that a warp's threads' accesses to one i coalesce, and row by row (nu[r·n + i]) in the
// warp-per-row kernels; rows ≥ the launch's rows. `ell`: a double per row, ℓ of the row's state between steps.
//
// A transition is two launches, a warp per chain in each: logz_gpc_ellipse_normals draws ν and
// logz_gpc_ellipse_slice makes the slice step, carrying ℓ to the next in scratch (with the annealing weight where asked). Lane l takes the
// cases i ≡ l (mod 32) (x, ν, μ and G's columns read at consecutive addresses) and the warp adds ℓ's terms in index
// order (logz_gpc_warp_sum), so 32 lanes share a transition's n·rank multiply-adds and ~3 evaluations of ℓ and the
// device fills from a few thousand chains (a thread per chain needed ~10^5). logz_gpc_ellipse_levels: a warp per 32
// chains; base and log density: a thread per chain. Grid-stride, any grid of LOGZ_BLOCK-thread blocks. Every kernel
// computes in float64 in the order the Java code does (G ξ column by column, ℓ's terms in index order then c,
// proposals rounded to float before ℓ), so the results do not depend on the launch shape (deterministic) and agree
// with the CPU to the rounding of exp, log, cos and sin.
#include "common.cuh"
#include "normal.cuh"

#define LOGZ_ELLIPSE_MAX_PROPOSALS 100
#define LOGZ_TWO_PI 6.283185307179586

// Term i of ℓ at x_i = v.
__device__ __forceinline__ double logz_gpc_term(const double* p, int n, int i, double v) {
    return logz_log_cdf(p[3 * n + i] * v) + (p[n + i] * v + p[2 * n + i]) * v;
}

// ℓ(x) of one row.
__device__ double logz_gpc_ell(const float* x, const double* p, int n, double constant) {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        s += logz_gpc_term(p, n, i, (double) x[i]);
    }
    return s + constant;
}

// ξ_2b and ξ_2b+1 (xi[0], xi[1]), the Box-Muller normals of block (b, particle, step, tag).
__device__ __forceinline__ void logz_gpc_normal_pair(int b, unsigned int particle, int step, int tag, unsigned int k0,
                                                     unsigned int k1, double xi[2]) {
    logz_philox_out w = logz_philox((unsigned int) b, particle, (unsigned int) step, (unsigned int) tag, k0, k1);
    double radius = sqrt(-2.0 * log(logz_uniform53(w.w[0], w.w[1])));
    double angle = LOGZ_TWO_PI * logz_uniform53(w.w[2], w.w[3]);
    xi[0] = radius * cos(angle);
    xi[1] = radius * sin(angle);
}

// nu[i·rows + r] = (G ξ)_i, ξ the Box-Muller normals of blocks (j/2, particle, step, tag).
__device__ void logz_gpc_gaussian(double* nu, long long rows, long long r, int n, int rank, const double* columns,
                                  unsigned int k0, unsigned int k1, long long particle, int step, int tag) {
    for (int i = 0; i < n; i++) {
        nu[(long long) i * rows + r] = 0.0;
    }
    for (int b = 0; 2 * b < rank; b++) {
        double xi[2];
        logz_gpc_normal_pair(b, (unsigned int) particle, step, tag, k0, k1, xi);
        for (int h = 0; h < 2 && 2 * b + h < rank; h++) {
            const double* column = columns + (long long) (2 * b + h) * n;
            for (int i = 0; i < n; i++) {
                nu[(long long) i * rows + r] += column[i] * xi[h];
            }
        }
    }
}

// Σ over the row's cases of f(i) in index order, then + constant, with a warp per row: lane l evaluates the cases
// i ≡ l (mod 32) of each batch of 32 into the warp's row of `terms` (consecutive doubles: no bank conflict), and every
// lane adds the batch's terms in order from there (broadcast reads), so all lanes hold the CPU's sum (GpcEllipse adds
// the terms one after another from 0). One exchange per batch where shuffles took 32 (the emulator runs a warp's
// lanes as fibers, switching at each). Every lane of the warp calls it.
template <typename Term>
__device__ __forceinline__ double logz_gpc_warp_sum(int n, double constant, int lane, Term term) {
    __shared__ logz_shared<double[LOGZ_BLOCK / LOGZ_WARP][LOGZ_WARP]> terms;
    int warp = (int) (threadIdx.x / LOGZ_WARP);
    double s = 0.0;
    for (int i0 = 0; i0 < n; i0 += LOGZ_WARP) {
        if (i0 + lane < n) {
            terms[warp][lane] = term(i0 + lane);
        }
        __syncwarp();
        int batch = n - i0 < LOGZ_WARP ? n - i0 : LOGZ_WARP;
        for (int j = 0; j < batch; j++) {
            s += terms[warp][j];
        }
        __syncwarp();
    }
    return s + constant;
}

// One elliptical slice step at beta of one row, a warp per row: x and nu point at the row (n floats, and ν's n
// doubles), lane l takes the cases i ≡ l (mod 32), so the warp's reads and writes of them are consecutive; ℓ(x) = l
// on entry. Every lane keeps the same angle (the same Philox blocks) and takes the same decisions. Returns ℓ of the
// state it leaves.
__device__ __forceinline__ double logz_gpc_warp_slice_step(float* x, const double* nu, int n, const double* p,
                                                         double constant, double l, double beta, unsigned int k0,
                                                         unsigned int k1, unsigned int particle, int step, int lane) {
    logz_philox_out h = logz_philox(0u, particle, (unsigned int) step, LOGZ_TAG_ELLIPSE, k0, k1);
    double theta = LOGZ_TWO_PI * logz_uniform53(h.w[0], h.w[1]);
    // the bracket [lo, hi] and the slice height, the same on every lane, kept one per lane (lanes 0, 1, 2): a double
    // per lane live while ℓ's terms are evaluated instead of three
    double kept = lane == 0   ? theta - LOGZ_TWO_PI
                  : lane == 1 ? theta
                              : beta * l + log(logz_uniform53(h.w[2], h.w[3]));
    for (int k = 1; k <= LOGZ_ELLIPSE_MAX_PROPOSALS; k++) {
        double c = cos(theta);
        double sn = sin(theta);
        double proposed = logz_gpc_warp_sum(n, constant, lane, [&](int i) {
            double centred = (double) x[i] - p[i];
            float v = (float) (p[i] + centred * c + nu[i] * sn);
            return logz_gpc_term(p, n, i, (double) v);
        });
        if (beta * proposed > __shfl_sync(LOGZ_FULL_MASK, kept, 2)) {
            for (int i = lane; i < n; i += LOGZ_WARP) {
                double centred = (double) x[i] - p[i];
                x[i] = (float) (p[i] + centred * c + nu[i] * sn);
            }
            return proposed;
        }
        if (lane == (theta < 0.0 ? 0 : 1)) {
            kept = theta;
        }
        double lo = __shfl_sync(LOGZ_FULL_MASK, kept, 0);
        double hi = __shfl_sync(LOGZ_FULL_MASK, kept, 1);
        logz_philox_out a = logz_philox((unsigned int) k, particle, (unsigned int) step, LOGZ_TAG_ELLIPSE, k0, k1);
        theta = lo + (hi - lo) * logz_uniform53(a.w[0], a.w[1]);
    }
    return l;
}

// x = μ + G ξ, ξ from blocks (j/2, particle, step, BASE), row r being particle first + r.
extern "C" __global__ void logz_gpc_ellipse_base(float* x, long long rows, int n, int rank, const double* p,
                                                 const double* columns, double* nu, unsigned int k0, unsigned int k1,
                                                 int step, long long first) {
    LOGZ_FOR_EACH(r, rows) {
        logz_gpc_gaussian(nu, rows, r, n, rank, columns, k0, k1, first + r, step, LOGZ_TAG_BASE);
        for (int i = 0; i < n; i++) {
            x[r * n + i] = (float) (nu[(long long) i * rows + r] + p[i]);
        }
    }
}

// out[r] = β ℓ(x_r).
extern "C" __global__ void logz_gpc_ellipse_log_density(const float* x, long long rows, int n, const double* p,
                                                        double constant, double beta, double* out) {
    LOGZ_FOR_EACH(r, rows) {
        out[r] = beta * logz_gpc_ell(x + r * n, p, n, constant);
    }
}

// nu[r·n + i] = (G ξ)_i of row r's auxiliary draw for the step (ξ from blocks (j/2, first + r, step,
// ELLIPSE_NORMAL)), a warp per row: lane l draws pair b0 + l of each 32 pairs into the warp's row of `normals` (a
// lane per column, so neither the stores nor the broadcast reads conflict), and every lane then adds the columns
// into its cases in column order (GpcEllipse.combine's sums). A kernel of its own, so that the slice step's registers
// are not the draw's.
extern "C" __global__ void logz_gpc_ellipse_normals(double* nu, long long rows, int n, int rank, const double* columns,
                                                    unsigned int k0, unsigned int k1, int step, long long first) {
    __shared__ logz_shared<double[LOGZ_BLOCK / LOGZ_WARP][2][LOGZ_WARP]> normals;
    int warp = (int) (threadIdx.x / LOGZ_WARP);
    int pairs = (rank + 1) / 2;
    LOGZ_FOR_EACH_WARP(r, lane, rows) {
        double* row = nu + r * n;
        for (int i = lane; i < n; i += LOGZ_WARP) {
            row[i] = 0.0;
        }
        for (int b0 = 0; b0 < pairs; b0 += LOGZ_WARP) {
            if (b0 + lane < pairs) {
                double xi[2];
                logz_gpc_normal_pair(b0 + lane, (unsigned int) (first + r), step, LOGZ_TAG_ELLIPSE_NORMAL, k0, k1, xi);
                normals[warp][0][lane] = xi[0];
                normals[warp][1][lane] = xi[1];
            }
            __syncwarp();
            for (int b = b0; b < pairs && b < b0 + LOGZ_WARP; b++) {
                for (int h = 0; h < 2 && 2 * b + h < rank; h++) {
                    double xi = normals[warp][h][b - b0];
                    const double* column = columns + (long long) (2 * b + h) * n;
                    for (int i = lane; i < n; i += LOGZ_WARP) {
                        row[i] += column[i] * xi;
                    }
                }
            }
            __syncwarp();
        }
    }
}

// A warp per row: ℓ(x_r), taken from x where `fresh`, else the ell[r] the previous step left (the CPU carries ℓ from
// step to step too); where logW is given, logW[r] += (to - from) ℓ(x_r); then, where `move`, one elliptical slice step
// at step `step` with row r's ν from logz_gpc_ellipse_normals, at β = to where logW is given, else at betas[r] when
// given, else at beta (row r is particle first + r); ell[r] = ℓ of the state left. __launch_bounds__: 64 registers
// without spills, occupancy 0.5.
extern "C" __global__ void __launch_bounds__(LOGZ_BLOCK, 4) logz_gpc_ellipse_slice(float* x, long long rows, int n,
        const double* p, double constant, double from, double to, double* logW, const double* betas, double beta,
        int move, const double* nu, double* ell, int fresh, unsigned int k0, unsigned int k1, int step,
        long long first) {
    LOGZ_FOR_EACH_WARP(r, lane, rows) {
        float* row = x + r * n;
        double l = fresh != 0 ? logz_gpc_warp_sum(n, constant, lane,
                                                  [&](int i) { return logz_gpc_term(p, n, i, (double) row[i]); })
                              : ell[r];
        if (logW != 0 && lane == 0) {
            logW[r] += (to - from) * l;
        }
        if (move) {
            double b = logW != 0 ? to : betas != 0 ? betas[r] : beta;
            l = logz_gpc_warp_slice_step(row, nu + r * n, n, p, constant, l, b, k0, k1, (unsigned int) (first + r), step,
                                         lane);
        }
        if (lane == 0) {
            ell[r] = l;
        }
    }
}


// logF[r·levels + k] = β_k ℓ(x_r), slope[r·levels + k] = ℓ(x_r). Blocks of LOGZ_BLOCK threads, a warp per 32 rows:
// lane l takes ℓ of row r0 + l with its terms in index order (logz_gpc_ell's sum), reading x 32 entries at a time
// through the warp's tile (logz_stage_rows), and the warp then writes its rows' levels at consecutive addresses; a
// thread per row touched a sector per entry and per level.
extern "C" __global__ void logz_gpc_ellipse_levels(const float* x, long long rows, int n, const double* p,
                                                   double constant, const double* level_betas, int levels,
                                                   double* logF, double* slope) {
    __shared__ logz_shared<float[LOGZ_BLOCK / LOGZ_WARP][LOGZ_WARP][LOGZ_WARP + 1]> tile;
    __shared__ logz_shared<double[LOGZ_BLOCK / LOGZ_WARP][LOGZ_WARP]> ell;
    int lane = (int) (threadIdx.x & (LOGZ_WARP - 1));
    int warp = (int) (threadIdx.x / LOGZ_WARP);
    for (long long r0 = (long long) blockIdx.x * blockDim.x + warp * LOGZ_WARP; r0 < rows;
         r0 += (long long) gridDim.x * blockDim.x) {
        double s = 0.0;
        for (int i0 = 0; i0 < n; i0 += LOGZ_WARP) {
            logz_stage_rows(x, n, r0, rows, i0, n, tile, warp, lane);
            for (int j = 0; r0 + lane < rows && j < LOGZ_WARP && i0 + j < n; j++) {
                s += logz_gpc_term(p, n, i0 + j, (double) tile[warp][lane][j]);
            }
            __syncwarp();
        }
        ell[warp][lane] = s + constant;
        __syncwarp();
        for (long long e = lane; e < (long long) LOGZ_WARP * levels; e += LOGZ_WARP) {
            long long r = r0 + e / levels;
            int k = (int) (e % levels);
            if (r < rows) {
                double l = ell[warp][e / levels];
                logF[r * levels + k] = level_betas[k] * l;
                slope[r * levels + k] = l;
            }
        }
        __syncwarp();
    }
}
