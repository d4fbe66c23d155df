package org.logz.path;

import org.logz.backend.Betas;
import org.logz.backend.IsingOps;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;
import org.logz.model.Ising;

/**
 * The Ising tempered path {@code f_β(x) = exp(β Σ_<ij> x_i x_j)} from the uniform distribution
 * ({@code log Z_0 = L² log 2}) to β = 1, with {@code sweepsPerStep} checkerboard heat-bath sweeps per
 * annealing step (Habeck's "equilibration steps", counted in sweeps of L² flips).
 */
public final class IsingTemperedPath implements TemperingPath {
    private final ParticleBackend backend;
    private final Ising model;
    private final int sweepsPerStep;
    private final IsingOps ops;

    public IsingTemperedPath(ParticleBackend backend, Ising model, int sweepsPerStep) {
        if (sweepsPerStep < 1) {
            throw new IllegalArgumentException("sweeps per step must be at least 1, got " + sweepsPerStep);
        }
        this.backend = backend;
        this.model = model;
        this.sweepsPerStep = sweepsPerStep;
        this.ops = backend.bind(model);
    }

    /**
     * The two ground states, all spins +1 and all -1, alternating over {@code count} rows: the start
     * of reverse runs (Habeck 2017, §6.1).
     */
    public float[] groundStates(int count) {
        int n = model.sites();
        float[] x = new float[count * n];
        for (int r = 0; r < count; r++) {
            java.util.Arrays.fill(x, r * n, (r + 1) * n, r % 2 == 0 ? 1f : -1f);
        }
        return x;
    }

    @Override
    public String description() {
        return "Ising " + model.size() + "×" + model.size() + " torus, " + sweepsPerStep + " heat-bath sweep"
                + (sweepsPerStep > 1 ? "s" : "") + " per step";
    }

    @Override
    public ParticleBackend backend() {
        return backend;
    }

    @Override
    public int dimension() {
        return model.sites();
    }

    @Override
    public boolean discrete() {
        return true;
    }

    @Override
    public double logZ0() {
        return model.sites() * Math.log(2.0);
    }

    @Override
    public TemperingPath.Chains chains(int count) {
        return new IsingChains(count);
    }

    @Override
    public void close() {
        ops.close();
    }

    private final class IsingChains extends MatrixChains implements TemperingPath.Chains {
        private final ParticleVector coupling;

        IsingChains(int count) {
            super(IsingTemperedPath.this.backend, count, model.sites());
            this.coupling = backend.vector(count);
        }

        @Override
        public void sampleBase(long seed, int step) {
            ops.sampleBase(x, count, seed, step);
        }

        @Override
        public void anneal(double from, double to, ParticleVector logW, boolean transition, long seed, int step) {
            ops.annealStep(x, count, from, to, logW, transition ? sweepsPerStep : 0, seed, step);
        }

        @Override
        public void transition(double beta, int sweeps, long seed, int step) {
            transition(Betas.of(beta), sweeps, seed, step);
        }

        @Override
        public void transition(ParticleVector betas, int sweeps, long seed, int step) {
            transition(Betas.of(betas), sweeps, seed, step);
        }

        /** {@code sweeps} transitions of {@code sweepsPerStep} sweeps each, one Philox step per transition. */
        private void transition(Betas betas, int sweeps, long seed, int step) {
            for (int s = 0; s < sweeps; s++) {
                ops.sweep(x, count, betas, sweepsPerStep, seed, step + s);
            }
        }

        @Override
        public void levels(ParticleVector levelBetas, int levels, ParticleVector logF, ParticleVector slope) {
            ops.logDensity(x, count, 1.0, coupling);
            backend.linearLevels(coupling, count, levelBetas, levels, logF, slope);
        }

        @Override
        public void logDensity(double beta, ParticleVector out) {
            ops.logDensity(x, count, beta, out);
        }

        @Override
        public void close() {
            super.close();
            coupling.close();
        }
    }
}
