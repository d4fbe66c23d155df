package org.logz.cpu;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;
import org.logz.model.toy.GaussianToy;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * The Gaussian toy's kernel on the CPU (one float per particle; arithmetic as gaussian_toy.cu). Every
 * chain moves at one temperature: the toy has no per-particle temperatures.
 */
final class CpuGaussianToyKernel implements TemperedKernel {
    private final CpuBackend backend;
    private final GaussianToy model;
    private boolean closed;

    CpuGaussianToyKernel(CpuBackend backend, GaussianToy model) {
        this.backend = backend;
        this.model = model;
    }

    @Override
    public int dimension() {
        return 1;
    }

    /** A standard normal draw: Box-Muller on the 53-bit uniforms of block (0, particle, step, GAUSSIAN). */
    static double normal(long seed, int particle, int step) {
        int[] words = new int[4];
        Philox.block(seed, 0, particle, step, StreamTag.GAUSSIAN, words);
        double radius = Math.sqrt(-2 * Math.log(Philox.toUniformDouble(words[0], words[1])));
        return radius * Math.cos(2 * Math.PI * Philox.toUniformDouble(words[2], words[3]));
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        CpuMatrix xm = states(x);
        for (int r = 0; r < count; r++) {
            xm.set(r, 0, (float) (model.mu0() + model.sigma0() * normal(seed, firstChain + r, step)));
        }
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions,
                       long seed, int step, int firstChain) {
        CpuMatrix xm = states(x);
        double[] weights = backend.own(logW).values();
        for (int r = 0; r < count; r++) {
            double v = xm.get(r, 0);
            weights[r] += model.logDensity(to, v) - model.logDensity(from, v);
        }
        move(xm, count, to, transitions, seed, step, firstChain);
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        if (!(betas instanceof Betas.Uniform uniform)) {
            throw new UnsupportedOperationException("the Gaussian toy has no per-particle temperatures");
        }
        move(states(x), count, uniform.beta(), transitions, seed, step, firstChain);
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        CpuMatrix xm = states(x);
        double[] betas = backend.own(levelBetas).values();
        double[] f = backend.own(logF).values();
        double[] d = backend.own(slope).values();
        for (int r = 0; r < count; r++) {
            double v = xm.get(r, 0);
            for (int k = 0; k < levels; k++) {
                f[r * levels + k] = model.logDensity(betas[k], v);
                d[r * levels + k] = model.slope(v);
            }
        }
    }

    private void move(CpuMatrix xm, int count, double beta, int sweeps, long seed, int step, int firstChain) {
        Kernel kernel = new Kernel(model, beta);
        for (int r = 0; r < count; r++) {
            float v = xm.get(r, 0);
            for (int s = 0; s < sweeps; s++) {
                v = kernel.move(v, normal(seed, firstChain + r, step + s));
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
        CpuMatrix xm = states(x);
        double[] values = backend.own(out).values();
        for (int r = 0; r < count; r++) {
            values[r] = model.logDensity(beta, xm.get(r, 0));
        }
    }

    private CpuMatrix states(ParticleMatrix x) {
        if (closed) {
            throw new IllegalStateException("Gaussian toy kernel is closed");
        }
        return backend.own(x);
    }

    @Override
    public void close() {
        closed = true;
    }
}
