package org.logz.cuda;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;
import org.logz.model.toy.GaussianToy;

/**
 * The Gaussian toy's kernel on the device (gaussian_toy.cu); the six parameters travel as kernel
 * arguments. Every chain moves at one temperature: the toy has no per-particle temperatures.
 */
final class CudaGaussianToyKernel implements TemperedKernel {
    private final CudaBackend backend;
    private final GaussianToyKernels kernels;
    private final GaussianToy model;
    private boolean closed;

    CudaGaussianToyKernel(CudaBackend backend, GaussianToy model) {
        this.backend = backend;
        this.kernels = backend.launcher(GaussianToyKernels.class, GaussianToyKernels::new);
        this.model = model;
    }

    @Override
    public int dimension() {
        return 1;
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        if (count > 0) {
            kernels.base(states(x), count, model, seed, step, firstChain);
        }
    }

    /** The first transition runs fused with the weight update, as {@code logz_toy_anneal} does. */
    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions,
                       long seed, int step, int firstChain) {
        if (count == 0) {
            return;
        }
        long xm = states(x);
        kernels.anneal(xm, count, model, from, to, backend.own(logW).address(), transitions > 0, seed, step, firstChain);
        move(xm, count, to, transitions - 1, seed, step + 1, firstChain);
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        if (!(betas instanceof Betas.Uniform uniform)) {
            throw new UnsupportedOperationException("the Gaussian toy has no per-particle temperatures");
        }
        if (count > 0) {
            move(states(x), count, uniform.beta(), transitions, seed, step, firstChain);
        }
    }

    private void move(long xm, int count, double beta, int transitions, long seed, int step, int firstChain) {
        for (int s = 0; s < transitions; s++) {
            kernels.move(xm, count, model, beta, seed, step + s, firstChain);
        }
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        if (count > 0) {
            kernels.levels(states(x), count, model, backend.own(levelBetas).address(), levels, backend.own(logF).address(),
                    backend.own(slope).address());
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        if (count > 0) {
            kernels.logDensity(states(x), count, model, beta, backend.own(out).address());
        }
    }

    private long states(ParticleMatrix x) {
        if (closed) {
            throw new IllegalStateException("Gaussian toy kernel is closed");
        }
        return backend.own(x).address();
    }

    @Override
    public void close() {
        closed = true;
    }
}
