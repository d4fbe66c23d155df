package org.logz.cpu;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;
import org.logz.model.ising.Ising;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * The Ising kernel on the CPU: each row's sweeps in plain Java, rows in parallel over tiles (as
 * ising.cu). A transition is one checkerboard heat-bath sweep (DESIGN §5).
 */
final class CpuIsingKernel implements TemperedKernel {
    private final CpuBackend backend;
    private final Ising model;
    private final int l;
    private final int n;
    private boolean closed;

    CpuIsingKernel(CpuBackend backend, Ising model) {
        this.backend = backend;
        this.model = model;
        this.l = model.size();
        this.n = model.sites();
    }

    @Override
    public int dimension() {
        return n;
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        FairCoins.draw(backend, states(x), count, n, seed, 0, step, firstChain, StreamTag.ISING, 1f, -1f);
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int sweeps,
                       long seed, int step, int firstChain) {
        CpuMatrix xm = states(x);
        double[] weights = backend.own(logW).values();
        backend.forEachTile(0, count, (t, rowFrom, rowTo) -> {
            float[] row = new float[n];
            for (int r = rowFrom; r < rowTo; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                xm.readRow(particle, row, 0);
                weights[particle] += (to - from) * model.coupling(row, 0);
                for (int s = 0; s < sweeps; s++) {
                    sweep(row, (float) to, to < from, seed, firstChain + particle, step + s);
                }
                xm.writeRow(particle, row, 0);
            }
        });
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int sweeps, long seed, int step, int firstChain) {
        CpuMatrix xm = states(x);
        double[] perParticle = betas instanceof Betas.PerParticle p ? backend.own(p.betas()).values() : null;
        double uniform = betas instanceof Betas.Uniform u ? u.beta() : 0;
        backend.forEachTile(0, count, (t, from, to) -> {
            float[] row = new float[n];
            for (int r = from; r < to; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                float beta = (float) (perParticle != null ? perParticle[particle] : uniform);
                xm.readRow(particle, row, 0);
                for (int s = 0; s < sweeps; s++) {
                    sweep(row, beta, false, seed, firstChain + particle, step + s);
                }
                xm.writeRow(particle, row, 0);
            }
        });
    }

    /**
     * One checkerboard heat-bath sweep of one configuration: colour 0 then 1, or 1 then 0 when
     * {@code reversed}; site i draws x_i = +1 with probability σ(2β h_i) in float32. A colour pass
     * visits sites in increasing order, so the Philox block of four sites is drawn once per pass.
     */
    private void sweep(float[] row, float beta, boolean reversed, long seed, int chain, int step) {
        int[] words = new int[4];
        for (int pass = 0; pass < 2; pass++) {
            int colour = reversed ? 1 - pass : pass;
            int block = -1;
            for (int rIdx = 0; rIdx < l; rIdx++) {
                int up = ((rIdx + l - 1) % l) * l;
                int down = ((rIdx + 1) % l) * l;
                int here = rIdx * l;
                for (int c = (rIdx + colour) & 1; c < l; c += 2) {
                    int i = here + c;
                    float h = row[here + (c + 1) % l] + row[here + (c + l - 1) % l] + row[down + c] + row[up + c];
                    if (i >>> 2 != block) {
                        block = i >>> 2;
                        Philox.block(seed, block, chain, step, StreamTag.ISING, words);
                    }
                    float p = RbmDraws.logistic(2f * beta * h);
                    row[i] = Philox.toUniform(words[i & 3]) < p ? 1f : -1f;
                }
            }
        }
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        LinearPathRows.logDensity(backend, states(x), n, count, beta, out, row -> model.coupling(row, 0));
    }

    /** log f_β = β·S(x) is linear in β: {@code logF = β_k·S}, {@code slope = S}. */
    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        LinearPathRows.levels(backend, states(x), n, count, levelBetas, levels, logF, slope,
                row -> model.coupling(row, 0));
    }

    private CpuMatrix states(ParticleMatrix x) {
        if (closed) {
            throw new IllegalStateException("Ising kernel is closed");
        }
        return backend.own(x);
    }

    @Override
    public void close() {
        closed = true;
    }
}
