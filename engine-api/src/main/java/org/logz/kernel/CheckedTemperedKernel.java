package org.logz.kernel;

import org.logz.backend.Betas;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;

/** Checks every argument of a {@link TemperedKernel} call once, for every model and backend. */
final class CheckedTemperedKernel implements TemperedKernel {
    private final ParticleBackend backend;
    private final TemperedKernel kernel;
    private final int dimension;
    private boolean closed;

    CheckedTemperedKernel(ParticleBackend backend, TemperedKernel kernel, int dimension) {
        this.backend = backend;
        this.kernel = kernel;
        this.dimension = dimension;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        states(x, count);
        KernelArguments.chains(firstChain, count);
        kernel.sampleBase(x, count, seed, step, firstChain);
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        states(x, count);
        KernelArguments.beta(beta);
        backend.range(out, 0, count);
        kernel.logDensity(x, count, beta, out);
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions, long seed,
                       int step, int firstChain) {
        states(x, count);
        KernelArguments.chains(firstChain, count);
        KernelArguments.beta(from);
        KernelArguments.beta(to);
        KernelArguments.transitions(transitions);
        backend.range(logW, 0, count);
        kernel.anneal(x, count, from, to, logW, transitions, seed, step, firstChain);
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step, int firstChain) {
        states(x, count);
        KernelArguments.chains(firstChain, count);
        KernelArguments.transitions(transitions);
        if (betas instanceof Betas.PerParticle p) {
            backend.range(p.betas(), 0, count);
        } else {
            KernelArguments.beta(((Betas.Uniform) betas).beta());
        }
        kernel.transition(x, count, betas, transitions, seed, step, firstChain);
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        states(x, count);
        int cells = KernelArguments.cells(count, levels);
        backend.range(levelBetas, 0, levels);
        backend.range(logF, 0, cells);
        backend.range(slope, 0, cells);
        kernel.levels(x, count, levelBetas, levels, logF, slope);
    }

    private void states(ParticleMatrix x, int count) {
        if (closed) {
            throw new IllegalStateException("kernel is closed");
        }
        backend.rows(x, 0, count);
        x.requireColumns(dimension, "values per state of the model");
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            kernel.close();
        }
    }
}
