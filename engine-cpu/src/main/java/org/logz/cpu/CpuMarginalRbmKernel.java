package org.logz.cpu;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;
import org.logz.model.rbm.MarginalRbm;
import org.logz.random.StreamTag;

/**
 * The marginal RBM path on the CPU (Habeck 2017, §6.3; {@link MarginalRbm}): each row's Metropolis sweeps in plain
 * Java ({@link MarginalChain}, O(N) per flip), rows in parallel over tiles, as rbm_marginal.cu runs one thread per
 * chain. A transition is one sweep of H single-unit flips.
 */
final class CpuMarginalRbmKernel implements TemperedKernel {
    private final CpuBackend backend;
    private final MarginalChain.Tables tables;
    private final int hidden;
    private boolean closed;

    CpuMarginalRbmKernel(CpuBackend backend, MarginalRbm model) {
        this.backend = backend;
        this.tables = MarginalChain.Tables.of(model);
        this.hidden = model.dimension();
    }

    @Override
    public int dimension() {
        return hidden;
    }

    /** Fair coins: unit j of chain c from word j mod 4 of block {@code (BASE_BLOCK + j/4, c, step, MODEL)}. */
    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        FairCoins.draw(backend, states(x), count, hidden, seed, MarginalRbm.BASE_BLOCK, step, firstChain, StreamTag.MODEL,
                1f, 0f);
    }

    /** {@code logW += (to − from)·(−F(h))}, then the sweeps at {@code to}, reversed when {@code to < from}. */
    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int sweeps, long seed,
                       int step, int firstChain) {
        CpuMatrix xm = states(x);
        double[] weights = backend.own(logW).values();
        backend.forEachTile(0, count, (t, rowFrom, rowTo) -> {
            MarginalChain chain = new MarginalChain(tables);
            for (int r = rowFrom; r < rowTo; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                chain.load(xm, particle);
                weights[particle] += (to - from) * chain.negativeFreeEnergy();
                for (int s = 0; s < sweeps; s++) {
                    chain.sweep(to, to < from, seed, firstChain + particle, step + s);
                }
                chain.store(xm, particle);
            }
        });
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int sweeps, long seed, int step, int firstChain) {
        CpuMatrix xm = states(x);
        double[] perParticle = betas instanceof Betas.PerParticle p ? backend.own(p.betas()).values() : null;
        double uniform = betas instanceof Betas.Uniform u ? u.beta() : 0;
        backend.forEachTile(0, count, (t, from, to) -> {
            MarginalChain chain = new MarginalChain(tables);
            for (int r = from; r < to; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                double beta = perParticle != null ? perParticle[particle] : uniform;
                chain.load(xm, particle);
                for (int s = 0; s < sweeps; s++) {
                    chain.sweep(beta, false, seed, firstChain + particle, step + s);
                }
                chain.store(xm, particle);
            }
        });
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        CpuMatrix xm = states(x);
        double[] values = backend.own(out).values();
        backend.forEachTile(0, count, (t, from, to) -> {
            MarginalChain chain = new MarginalChain(tables);
            for (int r = from; r < to; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                chain.load(xm, particle);
                values[particle] = beta * chain.negativeFreeEnergy();
            }
        });
    }

    /** log f_β = β·(−F(h)) is linear in β: {@code logF = β_k·(−F)}, {@code slope = −F}. */
    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        CpuMatrix xm = states(x);
        LinearLevels.fill(backend, count, levelBetas, levels, logF, slope, () -> {
            MarginalChain chain = new MarginalChain(tables);
            return particle -> {
                chain.load(xm, particle);
                return chain.negativeFreeEnergy();
            };
        });
    }

    private CpuMatrix states(ParticleMatrix x) {
        if (closed) {
            throw new IllegalStateException("marginal RBM kernel is closed");
        }
        return backend.own(x);
    }

    @Override
    public void close() {
        closed = true;
    }
}
