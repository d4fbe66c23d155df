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
            xm.set(r, 0, (float) (model.mu0() + model.sigma0() * normal(seed, r, step)));
        }
    }

    @Override
    public void annealStep(ParticleMatrix x, int count, double from, double to, ParticleVector logW, boolean transition,
                           long seed, int step) {
        CpuMatrix xm = states(x, count);
        CpuVector lw = backend.own(logW);
        lw.checkCount(count);
        double[] weights = lw.values();
        Kernel kernel = new Kernel(model, to);
        for (int r = 0; r < count; r++) {
            double v = xm.get(r, 0);
            weights[r] += model.logDensity(to, v) - model.logDensity(from, v);
            if (transition) {
                xm.set(r, 0, kernel.move(v, normal(seed, r, step)));
            }
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, double beta, int sweeps, long seed, int step) {
        CpuMatrix xm = states(x, count);
        Kernel kernel = new Kernel(model, beta);
        for (int r = 0; r < count; r++) {
            float v = xm.get(r, 0);
            for (int s = 0; s < sweeps; s++) {
                v = kernel.move(v, normal(seed, r, step + s));
            }
            xm.set(r, 0, v);
        }
    }

    /** The kernel at one β: {@code x' = τ x + (1-τ) μ_β + √(1-τ²) σ_β ξ}, its constants computed once per call. */
    private record Kernel(double tau, double mean, double spread) {
        Kernel(GaussianToy model, double beta) {
            this(model.tau(beta), model.mean(beta), Math.sqrt(1 - model.tau(beta) * model.tau(beta)) * model.sigma(beta));
        }

        float move(double x, double noise) {
            return (float) (tau * x + (1 - tau) * mean + spread * noise);
        }
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
