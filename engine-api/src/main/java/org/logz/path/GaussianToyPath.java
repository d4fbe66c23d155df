package org.logz.path;

import java.util.Optional;

import org.logz.backend.GaussianToyOps;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.model.GaussianToy;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/** The {@link GaussianToy} bridge as a tempered path; exact samples of the target are Gaussian draws. */
public final class GaussianToyPath implements TemperedPath {
    private final ParticleBackend backend;
    private final GaussianToy model;
    private final GaussianToyOps ops;

    public GaussianToyPath(ParticleBackend backend, GaussianToy model) {
        this.backend = backend;
        this.model = model;
        this.ops = backend.bind(model);
    }

    @Override
    public String description() {
        return "Gaussian toy N(" + model.mu0() + ", " + model.sigma0() + "²) → N(" + model.mu1() + ", " + model.sigma1()
                + "²), τ " + model.tau0() + " → " + model.tau1();
    }

    @Override
    public ParticleBackend backend() {
        return backend;
    }

    @Override
    public int dimension() {
        return 1;
    }

    @Override
    public double logZ0() {
        return model.logZ0();
    }

    /** Draws N(μ1, σ1²) with Box-Muller on Philox stream {@code GAUSSIAN}. */
    @Override
    public Optional<float[]> exactTargetSamples(int count, long seed) {
        float[] x = new float[count];
        int[] words = new int[4];
        for (int r = 0; r < count; r++) {
            Philox.block(seed, 1, r, 0, StreamTag.GAUSSIAN, words);
            double radius = Math.sqrt(-2 * Math.log(Philox.toUniformDouble(words[0], words[1])));
            double angle = 2 * Math.PI * Philox.toUniformDouble(words[2], words[3]);
            x[r] = (float) (model.mu1() + model.sigma1() * radius * Math.cos(angle));
        }
        return Optional.of(x);
    }

    @Override
    public Chains chains(int count) {
        return new MatrixChains(backend, count, 1) {
            @Override
            public void sampleBase(long seed, int step) {
                ops.sampleBase(x, count, seed, step);
            }

            @Override
            public void anneal(double from, double to, ParticleVector logW, boolean transition, long seed, int step) {
                ops.annealStep(x, count, from, to, logW, transition, seed, step);
            }

            @Override
            public void transition(double beta, int sweeps, long seed, int step) {
                ops.transition(x, count, beta, sweeps, seed, step);
            }

            @Override
            public void logDensity(double beta, ParticleVector out) {
                ops.logDensity(x, count, beta, out);
            }
        };
    }

    @Override
    public void close() {
        ops.close();
    }
}
