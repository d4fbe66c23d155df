// Hamiltonian Monte Carlo transitions of one chain (org.logz.kernel.Hmc; DESIGN §5, "HMC"), shared by the models'
// kernels (gmm_hmc.cu, gpc_hmc.cu), each of which supplies its log density and gradient as a functor
// `double f(const T* x, long long stride, double beta, double* grad, long long gstride)` (x[i·stride], gradient into
// grad[i·gstride] where grad is non-null). A transition: momenta p_i by Box-Muller on blocks (i/2, particle, step,
// MODEL); the accept uniform u (words 0-1) and the jitter uniform v (words 2-3) of block (LOGZ_HMC_CONTROL, particle,
// step, MODEL); L = 1 + min(l_max-1, ⌊v l_max⌋) when jittered; leapfrog in float64 with the end point rounded to float,
// its density and gradient evaluated there; accept when log u < H - H' with H' finite. One thread per chain, the
// arithmetic in the Java code's order; deterministic.
#pragma once

#include "common.cuh"

#define LOGZ_HMC_CONTROL 1073741824u

// `transitions` transitions of row r (x points at its d floats) at beta with step size eps; returns the accepted
// ones. Scratch: 4·d doubles per row, row-fastest (block k, coordinate i at ((k·d + i)·rows + r)): the momenta, the
// current gradient, the proposal and its gradient.
template <typename Density>
__device__ int logz_hmc_transitions(float* x, long long rows, long long r, int d, const Density& f, double beta,
                                    double eps, int leapfrog, int jitter, int transitions, double* scratch,
                                    unsigned int k0, unsigned int k1, long long particle, int step) {
    double* p = scratch + r;
    double* grad = scratch + (long long) d * rows + r;
    double* y = scratch + 2LL * d * rows + r;
    double* gy = scratch + 3LL * d * rows + r;
    double logF = f(x, 1, beta, grad, rows);
    int accepted = 0;
    for (int t = 0; t < transitions; t++) {
        double kinetic = 0.0;
        for (int i = 0; i < d; i++) {
            double pi = logz_stream_normal(i, k0, k1, particle, step + t, LOGZ_TAG_MODEL);
            p[i * rows] = pi;
            kinetic += pi * pi;
        }
        double h = -logF + 0.5 * kinetic;
        logz_philox_out w = logz_philox(LOGZ_HMC_CONTROL, (unsigned int) particle, (unsigned int) (step + t),
                                        LOGZ_TAG_MODEL, k0, k1);
        double logU = log(logz_uniform53(w.w[0], w.w[1]));
        int steps = leapfrog;
        if (jitter) {
            int drawn = (int) (logz_uniform53(w.w[2], w.w[3]) * leapfrog);
            steps = 1 + (drawn < leapfrog - 1 ? drawn : leapfrog - 1);
        }
        for (int i = 0; i < d; i++) {
            y[i * rows] = (double) x[i];
            gy[i * rows] = grad[i * rows];
            p[i * rows] += 0.5 * eps * gy[i * rows];
        }
        for (int l = 1; l <= steps; l++) {
            for (int i = 0; i < d; i++) {
                y[i * rows] += eps * p[i * rows];
                if (l == steps) {
                    y[i * rows] = (double) (float) y[i * rows];
                }
            }
            double lf = f(y, rows, beta, gy, rows);
            double half = l == steps ? 0.5 * eps : eps;
            for (int i = 0; i < d; i++) {
                p[i * rows] += half * gy[i * rows];
            }
            if (l == steps) {
                double k = 0.0;
                for (int i = 0; i < d; i++) {
                    k += p[i * rows] * p[i * rows];
                }
                double proposed = -lf + 0.5 * k;
                // proposed - proposed is 0 exactly when H' is finite (NaN for ±∞ and NaN): the accept rule's finiteness test
                if (proposed - proposed == 0.0 && logU < h - proposed) {
                    for (int i = 0; i < d; i++) {
                        x[i] = (float) y[i * rows];
                        grad[i * rows] = gy[i * rows];
                    }
                    logF = lf;
                    accepted++;
                }
            }
        }
    }
    return accepted;
}
