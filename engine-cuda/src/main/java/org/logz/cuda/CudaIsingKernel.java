package org.logz.cuda;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;
import org.logz.model.ising.Ising;

/**
 * The Ising kernel on the device (ising.cu; levels from tempering.cu's linear-level kernel); the
 * model is two integers, so nothing is uploaded. A transition is one checkerboard heat-bath sweep.
 */
final class CudaIsingKernel implements TemperedKernel {
    private final CudaBackend backend;
    private final IsingKernels kernels;
    private final Ising model;
    private final int l;
    private final LinearLevels linearLevels;
    private boolean closed;

    CudaIsingKernel(CudaBackend backend, Ising model) {
        this.backend = backend;
        this.linearLevels = new LinearLevels(backend);
        this.kernels = backend.launcher(IsingKernels.class, IsingKernels::new);
        this.model = model;
        this.l = model.size();
    }

    @Override
    public int dimension() {
        return model.sites();
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        if (count > 0) {
            kernels.base(states(x), count, model.sites(), seed, step, firstChain);
        }
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int sweeps, long seed,
                       int step, int firstChain) {
        if (count == 0) {
            return;
        }
        long xm = states(x);
        kernels.annealWeights(xm, l, count, from, to, backend.own(logW).address());
        for (int s = 0; s < sweeps; s++) {
            kernels.sweep(xm, l, count, (float) to, 0, to < from, seed, step + s, firstChain);
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int sweeps, long seed, int step, int firstChain) {
        if (count == 0) {
            return;
        }
        long xm = states(x);
        float beta = betas instanceof Betas.Uniform u ? (float) u.beta() : 0f;
        long perRow = betas instanceof Betas.PerParticle p ? backend.own(p.betas()).address() : 0;
        for (int s = 0; s < sweeps; s++) {
            kernels.sweep(xm, l, count, beta, perRow, false, seed, step + s, firstChain);
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        if (count > 0) {
            kernels.logDensity(states(x), l, count, beta, backend.own(out).address());
        }
    }

    /** log f_β = β·S(x) is linear in β: S once per chain, then {@code logF = β_k·S}, {@code slope = S}. */
    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        if (count > 0) {
            long xm = states(x);
            linearLevels.levels(count, at -> kernels.logDensity(xm, l, count, 1.0, at), levelBetas, levels, logF,
                    slope);
        }
    }

    private long states(ParticleMatrix x) {
        if (closed) {
            throw new IllegalStateException("Ising kernel is closed");
        }
        return backend.own(x).address();
    }

    @Override
    public void close() {
        closed = true;
        linearLevels.close();
    }
}
