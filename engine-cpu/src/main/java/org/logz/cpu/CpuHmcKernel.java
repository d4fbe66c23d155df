package org.logz.cpu;

import java.util.Arrays;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.Hmc;
import org.logz.kernel.HmcModel;
import org.logz.kernel.HmcStepSizes;
import org.logz.kernel.TemperedKernel;

/**
 * Hamiltonian Monte Carlo on the CPU for any {@link HmcModel} (DESIGN §5, "HMC"): each row's transitions by
 * {@link Hmc} in plain Java with the model's log density and gradient, rows in parallel tiles, so results do not depend
 * on the thread count. Step sizes come from {@link HmcStepSizes} on the host before a call and learn from its
 * accept counts after it.
 */
final class CpuHmcKernel implements TemperedKernel {
    private final CpuBackend backend;
    private final HmcModel model;
    private final HmcStepSizes stepSizes;
    private final int d;
    private boolean closed;

    CpuHmcKernel(CpuBackend backend, HmcModel model) {
        this.backend = backend;
        this.model = model;
        this.stepSizes = new HmcStepSizes(model.hmc());
        this.d = model.dimension();
    }

    @Override
    public int dimension() {
        return d;
    }

    /** Runs {@code task} on rows [0, count) in parallel tiles ({@link CpuRows}); {@code write} stores each row back. */
    private void eachRow(ParticleMatrix x, int count, boolean write, CpuRows.Task<Hmc.Chain> task) {
        CpuRows.each(backend, states(x), count, d, write, () -> new Hmc.Chain(d), task);
    }

    private double[] values(float[] row) {
        double[] v = new double[d];
        for (int i = 0; i < d; i++) {
            v[i] = row[i];
        }
        return v;
    }

    /** Adaptive step sizes follow the whole batch ({@link HmcStepSizes}): a part of it would adapt on its own. */
    private void requireOneBatch(int firstChain) {
        if (firstChain != 0 && model.hmc().adapt()) {
            throw new UnsupportedOperationException("adaptive HMC step sizes follow the whole batch: its chains run as "
                    + "one batch, not from chain " + firstChain);
        }
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        requireOneBatch(firstChain);
        eachRow(x, count, true, (row, particle, chain) -> {
            double[] v = new double[d];
            model.sampleBase(seed, firstChain + particle, step, v);
            for (int i = 0; i < d; i++) {
                row[i] = (float) v[i];
            }
        });
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        double[] values = backend.own(out).values();
        eachRow(x, count, false, (row, particle, chain) -> values[particle] = model.logDensity(beta, values(row), null));
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions,
                       long seed, int step, int firstChain) {
        requireOneBatch(firstChain);
        double[] weights = backend.own(logW).values();
        double[] betas = new double[count];
        Arrays.fill(betas, to);
        double[] eps = stepSizes.perRow(seed, betas, count);
        int[] accepted = new int[count];
        eachRow(x, count, transitions > 0, (row, particle, chain) -> {
            double[] v = values(row);
            weights[particle] += model.logDensity(to, v, null) - model.logDensity(from, v, null);
            move(row, particle, chain, to, eps[particle], transitions, seed, firstChain, step, accepted);
        });
        stepSizes.update(seed, betas, eps, accepted, count, transitions);
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int transitions, long seed, int step,
                           int firstChain) {
        requireOneBatch(firstChain);
        double[] beta = new double[count];
        if (betas instanceof Betas.PerParticle p) {
            System.arraycopy(backend.own(p.betas()).values(), 0, beta, 0, count);
        } else {
            Arrays.fill(beta, ((Betas.Uniform) betas).beta());
        }
        double[] eps = stepSizes.perRow(seed, beta, count);
        int[] accepted = new int[count];
        eachRow(x, count, true, (row, particle, chain) -> move(row, particle, chain, beta[particle], eps[particle],
                transitions, seed, firstChain, step, accepted));
        stepSizes.update(seed, beta, eps, accepted, count, transitions);
    }

    private void move(float[] row, int particle, Hmc.Chain chain, double beta, double eps, int transitions, long seed,
                      int firstChain, int step, int[] accepted) {
        if (transitions == 0) {
            return;
        }
        chain.load(model, beta, row, 0);
        accepted[particle] = Hmc.transitions(model, chain, beta, eps, transitions, seed, firstChain + particle, step);
        chain.store(row, 0);
    }

    /** {@code logF = log f_{β_k}(x)}, {@code slope = d/dβ log f_β(x)} at β_k. */
    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        double[] betas = backend.own(levelBetas).values();
        double[] f = backend.own(logF).values();
        double[] s = backend.own(slope).values();
        eachRow(x, count, false, (row, particle, chain) -> {
            double[] v = values(row);
            for (int k = 0; k < levels; k++) {
                f[particle * levels + k] = model.logDensity(betas[k], v, null);
                s[particle * levels + k] = model.slope(betas[k], v);
            }
        });
    }

    private CpuMatrix states(ParticleMatrix x) {
        if (closed) {
            throw new IllegalStateException("HMC kernel of " + model.description() + " is closed");
        }
        return backend.own(x);
    }

    @Override
    public void close() {
        closed = true;
    }
}
