package org.logz.cpu;

import org.logz.backend.GaussianToyOps;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.model.GaussianToy;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/** Gaussian toy kernels on the CPU (one float per particle; arithmetic as gaussian_toy.cu). */
final class CpuGaussianToyOps implements GaussianToyOps {
    private final CpuBackend backend;
    private final GaussianToy model;
    private boolean closed;

    CpuGaussianToyOps(CpuBackend backend, GaussianToy model) {
        this.backend = backend;
        this.model = model;
    }

    @Override
    public GaussianToy model() {
        return model;
    }

    /** A standard normal draw: Box-Muller on the 53-bit uniforms of block (0, particle, step, GAUSSIAN). */
    static double normal(long seed, int particle, int step) {
        int[] words = new int[4];
        Philox.block(seed, 0, particle, step, StreamTag.GAUSSIAN, words);
        double radius = Math.sqrt(-2 * Math.log(Philox.toUniformDouble(words[0], words[1])));
        return radius * Math.cos(2 * Math.PI * Philox.toUniformDouble(words[2], words[3]));
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step) {
        CpuMatrix xm = states(x, count);
        for (int r = 0; r < count; r++) {
            set(xm, r, (float) (model.mu0() + model.sigma0() * normal(seed, r, step)));
        }
    }

    @Override
    public void annealStep(ParticleMatrix x, int count, double from, double to, ParticleVector logW, boolean transition,
                           long seed, int step) {
        CpuMatrix xm = states(x, count);
        CpuVector lw = backend.own(logW);
        lw.checkCount(count);
        double[] weights = lw.values();
        for (int r = 0; r < count; r++) {
            double v = xm.get(r, 0);
            weights[r] += model.logDensity(to, v) - model.logDensity(from, v);
            if (transition) {
                set(xm, r, move(v, to, seed, r, step));
            }
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, double beta, int sweeps, long seed, int step) {
        CpuMatrix xm = states(x, count);
        for (int r = 0; r < count; r++) {
            double v = xm.get(r, 0);
            for (int s = 0; s < sweeps; s++) {
                v = (float) move(v, beta, seed, r, step + s);
            }
            set(xm, r, (float) v);
        }
    }

    /** {@code τ x + (1-τ) μ_β + √(1-τ²) σ_β ξ}. */
    private float move(double x, double beta, long seed, int particle, int step) {
        double tau = model.tau(beta);
        return (float) (tau * x + (1 - tau) * model.mean(beta) + Math.sqrt(1 - tau * tau) * model.sigma(beta)
                * normal(seed, particle, step));
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        CpuMatrix xm = states(x, count);
        CpuVector o = backend.own(out);
        o.checkCount(count);
        for (int r = 0; r < count; r++) {
            o.values()[r] = model.logDensity(beta, xm.get(r, 0));
        }
    }

    private static void set(CpuMatrix xm, int row, float value) {
        xm.writeRow(row, new float[] {value}, 0);
    }

    private CpuMatrix states(ParticleMatrix x, int count) {
        if (closed) {
            throw new IllegalStateException("Gaussian toy ops are closed");
        }
        CpuMatrix xm = backend.own(x);
        xm.checkRows(0, count);
        xm.requireColumns(1, "value of the Gaussian toy");
        return xm;
    }

    @Override
    public void close() {
        closed = true;
    }
}
