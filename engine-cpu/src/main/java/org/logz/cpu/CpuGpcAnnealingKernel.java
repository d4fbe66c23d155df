package org.logz.cpu;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;
import org.logz.model.gpc.GpcEllipse;
import org.logz.model.gpc.TemperedGpc;

/**
 * GP classification on its tempered path on the CPU (ARM paper eq. 11, DESIGN §5): a chain is x (n
 * floats), {@code log f_β = β ℓ(x)} against the Gaussian base, and a transition is one elliptical slice
 * step ({@link GpcEllipse}). Rows run in parallel tiles, each row's arithmetic in order, so results do
 * not depend on the thread count; the steps are those of gp_ellipse.cu.
 */
final class CpuGpcAnnealingKernel implements TemperedKernel {
    private final CpuBackend backend;
    private final TemperedGpc model;
    private final double[] columns;
    private final double[] mean;
    private final int n;
    private boolean closed;

    CpuGpcAnnealingKernel(CpuBackend backend, TemperedGpc model) {
        this.backend = backend;
        this.model = model;
        this.columns = model.factor().columns();
        this.mean = model.mean();
        this.n = model.size();
    }

    @Override
    public int dimension() {
        return n;
    }

    /** Runs {@code task} on rows [0, count) in parallel tiles ({@link CpuRows}); {@code write} stores each row back. */
    private void eachRow(ParticleMatrix x, int count, boolean write, CpuRows.Task<GpcEllipse.Scratch> task) {
        CpuRows.each(backend, states(x), count, n, write, () -> new GpcEllipse.Scratch(model), task);
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        eachRow(x, count, true, (row, particle, scratch) ->
                GpcEllipse.sampleBase(model, columns, mean, row, 0, seed, firstChain + particle, step, scratch));
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        double[] values = backend.own(out).values();
        eachRow(x, count, false, (row, particle, scratch) ->
                values[particle] = beta * model.logLikelihoodRatio(row, 0));
    }

    /** The increment {@code (to - from) ℓ(x)}; the first transition's slice height reuses that ℓ. */
    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions,
                       long seed, int step, int firstChain) {
        double[] weights = backend.own(logW).values();
        eachRow(x, count, transitions > 0, (row, particle, scratch) -> {
            double l = model.logLikelihoodRatio(row, 0);
            weights[particle] += (to - from) * l;
            GpcEllipse.transitions(model, columns, mean, row, 0, l, to, transitions, seed, firstChain + particle, step,
                    scratch);
        });
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        double[] perParticle = betas instanceof Betas.PerParticle p ? backend.own(p.betas()).values() : null;
        double uniform = betas instanceof Betas.Uniform u ? u.beta() : 0;
        eachRow(x, count, true, (row, particle, scratch) -> GpcEllipse.transitions(model, columns, mean, row, 0,
                model.logLikelihoodRatio(row, 0), perParticle != null ? perParticle[particle] : uniform, transitions,
                seed, firstChain + particle, step, scratch));
    }

    /** {@code logF = β_k ℓ(x)}, {@code slope = ℓ(x)}. */
    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        double[] betas = backend.own(levelBetas).values();
        double[] f = backend.own(logF).values();
        double[] d = backend.own(slope).values();
        eachRow(x, count, false, (row, particle, scratch) -> {
            double l = model.logLikelihoodRatio(row, 0);
            for (int k = 0; k < levels; k++) {
                f[particle * levels + k] = betas[k] * l;
                d[particle * levels + k] = l;
            }
        });
    }

    private CpuMatrix states(ParticleMatrix x) {
        if (closed) {
            throw new IllegalStateException("GP classification annealing kernel is closed");
        }
        return backend.own(x);
    }

    @Override
    public void close() {
        closed = true;
    }
}
