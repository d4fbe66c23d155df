package org.logz.testkit.reference;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;
import org.logz.model.gpc.TemperedGpc;
import org.logz.numeric.Normal;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * GP classification on its tempered path in plain scalar Java, written from the specification of
 * elliptical slice sampling (Murray, Adams &amp; MacKay 2010, Figure 2) and the Philox layout of
 * {@link org.logz.model.gpc.GpcEllipse}, not by calling it: {@code log f_β(x) = β ℓ(x)} against the base
 * {@code N(μ, G Gᵀ)}, one elliptical slice step per transition.
 */
final class ReferenceGpcAnnealingKernel implements TemperedKernel {
    private final ReferenceBackend backend;
    private final TemperedGpc model;
    private final int n;
    private final int rank;
    private final double[] mu;
    private final double[] quadratic;
    private final double[] linear;
    private boolean closed;

    ReferenceGpcAnnealingKernel(ReferenceBackend backend, TemperedGpc model) {
        this.backend = backend;
        this.model = model;
        this.n = model.size();
        this.rank = model.rank();
        this.mu = model.mean();
        this.quadratic = model.quadratic();
        this.linear = model.linear();
    }

    @Override
    public int dimension() {
        return n;
    }

    /** ℓ(x) = Σ_i [log Φ(y_i x_i) + (a_i x_i + b_i) x_i] + c, in index order. */
    private double ell(float[] x, int offset) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            double v = x[offset + i];
            s += Normal.logCdf(model.label(i) * v) + (quadratic[i] * v + linear[i]) * v;
        }
        return s + model.constant();
    }

    /** (G ξ)_i with ξ_j = Box-Muller normal j of block (j/2, particle, step, tag). */
    private double[] gaussian(long seed, int particle, int step, int tag) {
        double[] xi = new double[rank];
        int[] w = new int[4];
        for (int j = 0; j < rank; j++) {
            Philox.block(seed, j / 2, particle, step, tag, w);
            double radius = Math.sqrt(-2 * Math.log(Philox.toUniformDouble(w[0], w[1])));
            double phi = 2 * Math.PI * Philox.toUniformDouble(w[2], w[3]);
            xi[j] = j % 2 == 0 ? radius * Math.cos(phi) : radius * Math.sin(phi);
        }
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < rank; j++) {
                s += model.factor().at(i, j) * xi[j];
            }
            out[i] = s;
        }
        return out;
    }

    private static double uniform(long seed, int block, int particle, int step, int word) {
        int[] w = new int[4];
        Philox.block(seed, block, particle, step, StreamTag.ELLIPSE, w);
        return Philox.toUniformDouble(w[word], w[word + 1]);
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        float[] v = states(x);
        for (int p = 0; p < count; p++) {
            double[] g = gaussian(seed, firstChain + p, step, StreamTag.BASE);
            for (int i = 0; i < n; i++) {
                v[p * n + i] = (float) (g[i] + mu[i]);
            }
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        float[] v = states(x);
        for (int p = 0; p < count; p++) {
            backend.values(out)[p] = beta * ell(v, p * n);
        }
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions, long seed,
                       int step, int firstChain) {
        float[] v = states(x);
        for (int p = 0; p < count; p++) {
            backend.values(logW)[p] += (to - from) * ell(v, p * n);
        }
        transition(x, count, Betas.of(to), transitions, seed, step, firstChain);
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        float[] v = states(x);
        for (int p = 0; p < count; p++) {
            double beta = betas instanceof Betas.Uniform u ? u.beta() : backend.values(((Betas.PerParticle) betas).betas())[p];
            for (int t = 0; t < transitions; t++) {
                ellipticalSlice(v, p, firstChain + p, beta, seed, step + t);
            }
        }
    }

    /** One step of Murray et al.'s Figure 2 with the bracket [θ - 2π, θ] shrunk towards 0; at most 100 proposals. */
    private void ellipticalSlice(float[] v, int p, int chain, double beta, long seed, int step) {
        double[] nu = gaussian(seed, chain, step, StreamTag.ELLIPSE_NORMAL);
        double logHeight = beta * ell(v, p * n) + Math.log(uniform(seed, 0, chain, step, 2));
        double theta = 2 * Math.PI * uniform(seed, 0, chain, step, 0);
        double lo = theta - 2 * Math.PI;
        double hi = theta;
        float[] proposal = new float[n];
        for (int k = 1; k <= 100; k++) {
            for (int i = 0; i < n; i++) {
                proposal[i] = (float) (mu[i] + (v[p * n + i] - mu[i]) * Math.cos(theta) + nu[i] * Math.sin(theta));
            }
            if (beta * ell(proposal, 0) > logHeight) {
                System.arraycopy(proposal, 0, v, p * n, n);
                return;
            }
            if (theta < 0) {
                lo = theta;
            } else {
                hi = theta;
            }
            theta = lo + (hi - lo) * uniform(seed, k, chain, step, 0);
        }
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        float[] v = states(x);
        double[] betas = backend.values(levelBetas);
        for (int p = 0; p < count; p++) {
            double l = ell(v, p * n);
            for (int k = 0; k < levels; k++) {
                backend.values(logF)[p * levels + k] = betas[k] * l;
                backend.values(slope)[p * levels + k] = l;
            }
        }
    }

    private float[] states(ParticleMatrix m) {
        if (closed) {
            throw new IllegalStateException("GP classification annealing kernel is closed");
        }
        return backend.matrix(m).values();
    }

    @Override
    public void close() {
        closed = true;
    }
}
