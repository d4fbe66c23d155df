package org.logz.testkit.reference;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;
import org.logz.model.toy.GaussianToy;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * The Gaussian toy of Habeck (2017, §6.2): one value per particle, the exact autoregressive kernel
 * {@code x' = τ_β x + (1 - τ_β) μ_β + √(1 - τ_β²) σ_β ξ} that leaves {@code N(μ_β, σ_β²)} invariant,
 * ξ by Box-Muller from the 53-bit uniforms of Philox block {@code (0, particle, step, GAUSSIAN)}. The toy
 * has no per-particle temperatures.
 */
final class ReferenceGaussianToyKernel implements TemperedKernel {
    private final ReferenceBackend backend;
    private final GaussianToy model;
    private boolean closed;

    ReferenceGaussianToyKernel(ReferenceBackend backend, GaussianToy model) {
        this.backend = backend;
        this.model = model;
    }

    @Override
    public int dimension() {
        return 1;
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        float[] v = states(x);
        for (int p = 0; p < count; p++) {
            v[p] = (float) (model.mu0() + model.sigma0() * normal(seed, firstChain + p, step));
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        float[] v = states(x);
        for (int p = 0; p < count; p++) {
            backend.values(out)[p] = model.logDensity(beta, v[p]);
        }
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions, long seed,
                       int step, int firstChain) {
        float[] v = states(x);
        for (int p = 0; p < count; p++) {
            backend.values(logW)[p] += model.logDensity(to, v[p]) - model.logDensity(from, v[p]);
        }
        transition(x, count, Betas.of(to), transitions, seed, step, firstChain);
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        if (!(betas instanceof Betas.Uniform uniform)) {
            throw new UnsupportedOperationException("the Gaussian toy has no per-particle temperatures");
        }
        double beta = uniform.beta();
        double tau = model.tau(beta);
        float[] v = states(x);
        for (int p = 0; p < count; p++) {
            for (int t = 0; t < transitions; t++) {
                double noise = normal(seed, firstChain + p, step + t);
                v[p] = (float) (tau * v[p] + (1 - tau) * model.mean(beta) + Math.sqrt(1 - tau * tau) * model.sigma(beta) * noise);
            }
        }
    }

    /** {@code log f_β} at every level, and its slope {@code log f_1 - log f_0}. */
    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        float[] v = states(x);
        for (int p = 0; p < count; p++) {
            for (int k = 0; k < levels; k++) {
                backend.values(logF)[p * levels + k] = model.logDensity(backend.values(levelBetas)[k], v[p]);
                backend.values(slope)[p * levels + k] = model.logDensity(1, v[p]) - model.logDensity(0, v[p]);
            }
        }
    }

    private static double normal(long seed, int particle, int step) {
        int[] words = new int[4];
        Philox.block(seed, 0, particle, step, StreamTag.GAUSSIAN, words);
        double u1 = Philox.toUniformDouble(words[0], words[1]);
        double u2 = Philox.toUniformDouble(words[2], words[3]);
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    private float[] states(ParticleMatrix m) {
        if (closed) {
            throw new IllegalStateException("Gaussian toy kernel is closed");
        }
        return backend.matrix(m).values();
    }

    @Override
    public void close() {
        closed = true;
    }
}
