package org.logz.cpu;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;
import org.logz.model.rbm.MarginalRbm;
import org.logz.random.Philox;
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
        CpuMatrix xm = states(x);
        backend.forEachTile(0, count, (t, from, to) -> {
            float[] row = new float[hidden];
            int[] words = new int[4];
            for (int r = from; r < to; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                for (int j = 0; j < hidden; j++) {
                    if ((j & 3) == 0) {
                        Philox.block(seed, MarginalRbm.BASE_BLOCK + (j >>> 2), firstChain + particle, step,
                                StreamTag.MODEL, words);
                    }
                    row[j] = Philox.toUniform(words[j & 3]) < 0.5f ? 1f : 0f;
                }
                xm.writeRow(particle, row, 0);
            }
        });
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
        double[] betas = backend.own(levelBetas).values();
        double[] f = backend.own(logF).values();
        double[] d = backend.own(slope).values();
        backend.forEachTile(0, count, (t, from, to) -> {
            MarginalChain chain = new MarginalChain(tables);
            for (int r = from; r < to; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                chain.load(xm, particle);
                double negF = chain.negativeFreeEnergy();
                for (int k = 0; k < levels; k++) {
                    f[particle * levels + k] = betas[k] * negF;
                    d[particle * levels + k] = negF;
                }
            }
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
