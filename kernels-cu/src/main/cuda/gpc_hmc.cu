// GP classification by Hamiltonian Monte Carlo in whitened coordinates (ARM Fig. 2's baselines; DESIGN §5, "GPC by
// HMC"), the arithmetic of org.logz.model.gpc.WhitenedGpc in the same order: a chain is ξ (rank floats),
//   x = μ + G ξ (columns added in order from 0, then μ),  ℓ(x) = Σ_i [log Φ(y_i x_i) + (a_i x_i + b_i) x_i] + c,
//   log f_β(ξ) = -½|ξ|² - (rank/2) log 2π + β ℓ(x),  ∇ = -ξ + β Gᵀ d,  d_i = y_i φ(y_i x_i)/Φ(y_i x_i) + 2 a_i x_i + b_i.
// The transitions are hmc.cuh's (HMC on ξ with identity mass: RMHMC with the base's constant metric).
//
// Inputs from the host: `p` = [μ (n) | a (n) | b (n) | y (n, ±1.0)] and G by columns (`columns`, rank × n, column j at
// j·n), as gp_ellipse.cu takes them; the constant c and log 2π; each row's step size (`eps`, chosen on the host by
// org.logz.kernel.HmcStepSizes) and β per row (`betas`) or for all (`beta`). Outputs: ξ, each row's accepted
// transitions (`accepted`, as doubles). Scratch: (4·rank + n) doubles per row, row-fastest: hmc.cuh's 4·rank, then
// x (and, in a gradient, d) at ((4·rank + i)·rows + r). One thread per chain, grid-stride, any grid of
// LOGZ_BLOCK-thread blocks; deterministic, and equal to the CPU's to the rounding of exp, log, cos and sin. A
// leapfrog step costs two products with G (n·rank each).
#include "hmc.cuh"
#include "normal.cuh"

// The whitened path's parameters, and the scratch of x for row r (x_i at latent[i·rows]).
struct logz_gpc_whitened {
    int n;
    int rank;
    const double* p;
    const double* columns;
    double constant;
    double log_two_pi;
    double* latent;
    long long rows;

    // x = μ + G ξ into latent; returns ℓ(x).
    template <typename T>
    __device__ double ell(const T* xi, long long stride) const {
        for (int i = 0; i < n; i++) {
            latent[i * rows] = 0.0;
        }
        for (int j = 0; j < rank; j++) {
            double c = (double) xi[j * stride];
            const double* column = columns + (long long) j * n;
            for (int i = 0; i < n; i++) {
                latent[i * rows] += column[i] * c;
            }
        }
        double s = 0.0;
        for (int i = 0; i < n; i++) {
            double v = latent[i * rows] + p[i];
            latent[i * rows] = v;
            s += logz_log_cdf(p[3 * n + i] * v) + (p[n + i] * v + p[2 * n + i]) * v;
        }
        return s + constant;
    }

    template <typename T>
    __device__ double operator()(const T* xi, long long stride, double beta, double* grad, long long gstride) const {
        double l = ell(xi, stride);
        double squares = 0.0;
        for (int j = 0; j < rank; j++) {
            double v = (double) xi[j * stride];
            squares += v * v;
        }
        if (grad != 0) {
            for (int i = 0; i < n; i++) {
                double v = latent[i * rows];
                double y = p[3 * n + i];
                latent[i * rows] = y * logz_pdf_over_cdf(y * v) + 2.0 * p[n + i] * v + p[2 * n + i];
            }
            for (int j = 0; j < rank; j++) {
                const double* column = columns + (long long) j * n;
                double s = 0.0;
                for (int i = 0; i < n; i++) {
                    s += column[i] * latent[i * rows];
                }
                grad[j * gstride] = -(double) xi[j * stride] + beta * s;
            }
        }
        return -0.5 * squares - 0.5 * rank * log_two_pi + beta * l;
    }
};

#define LOGZ_GPCW_ARGS int n, int rank, const double* p, const double* columns, double constant, double log_two_pi
#define LOGZ_GPCW_MAKE(scratch_rows, r) \
    const logz_gpc_whitened f = {n, rank, p, columns, constant, log_two_pi, \
                                 scratch + 4LL * rank * (scratch_rows) + (r), (scratch_rows)}

// ξ ~ N(0, I): the normals of (particle, step) on tag BASE.
extern "C" __global__ void logz_gpcw_base(float* xi, long long rows, int rank, unsigned int k0, unsigned int k1,
                                          int step, long long first) {
    LOGZ_FOR_EACH(r, rows) {
        for (int j = 0; j < rank; j++) {
            xi[r * rank + j] = (float) logz_stream_normal(j, k0, k1, first + r, step, LOGZ_TAG_BASE);
        }
    }
}

// out[r] = log f_β(ξ_r).
extern "C" __global__ void logz_gpcw_log_density(const float* xi, long long rows, LOGZ_GPCW_ARGS, double beta,
                                                 double* scratch, double* out) {
    LOGZ_FOR_EACH(r, rows) {
        LOGZ_GPCW_MAKE(rows, r);
        out[r] = f(xi + r * rank, 1, beta, (double*) 0, 0);
    }
}

// logF[r·levels + k] = log f_{β_k}(ξ_r), slope[r·levels + k] = ℓ(x_r).
extern "C" __global__ void logz_gpcw_levels(const float* xi, long long rows, LOGZ_GPCW_ARGS, const double* level_betas,
                                            int levels, double* scratch, double* logF, double* slope) {
    LOGZ_FOR_EACH(r, rows) {
        LOGZ_GPCW_MAKE(rows, r);
        double l = f.ell(xi + r * rank, 1);
        for (int k = 0; k < levels; k++) {
            logF[r * levels + k] = f(xi + r * rank, 1, level_betas[k], (double*) 0, 0);
            slope[r * levels + k] = l;
        }
    }
}

// logW += log f_to(ξ) - log f_from(ξ), then `transitions` transitions at `to`.
extern "C" __global__ void logz_gpcw_anneal(float* xi, long long rows, LOGZ_GPCW_ARGS, double from, double to,
                                            double* logW, int transitions, const double* eps, int leapfrog, int jitter,
                                            double* scratch, double* accepted, unsigned int k0, unsigned int k1,
                                            int step, long long first) {
    LOGZ_FOR_EACH(r, rows) {
        LOGZ_GPCW_MAKE(rows, r);
        float* row = xi + r * rank;
        logW[r] += f(row, 1, to, (double*) 0, 0) - f(row, 1, from, (double*) 0, 0);
        accepted[r] = transitions > 0 ? (double) logz_hmc_transitions(row, rows, r, rank, f, to, eps[r], leapfrog,
                jitter, transitions, scratch, k0, k1, first + r, step) : 0.0;
    }
}

// `transitions` transitions of each row at betas[r] (or beta where betas is null).
extern "C" __global__ void logz_gpcw_transition(float* xi, long long rows, LOGZ_GPCW_ARGS, const double* betas,
                                                double beta, int transitions, const double* eps, int leapfrog,
                                                int jitter, double* scratch, double* accepted, unsigned int k0,
                                                unsigned int k1, int step, long long first) {
    LOGZ_FOR_EACH(r, rows) {
        LOGZ_GPCW_MAKE(rows, r);
        accepted[r] = (double) logz_hmc_transitions(xi + r * rank, rows, r, rank, f, betas != 0 ? betas[r] : beta,
                eps[r], leapfrog, jitter, transitions, scratch, k0, k1, first + r, step);
    }
}
