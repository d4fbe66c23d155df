package org.logz.cpu;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.TemperedKernel;
import org.logz.model.potts.Potts;
import org.logz.model.potts.PottsSteps;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * The Potts kernel on the CPU: each row's sweeps in plain Java on its colours as ints, rows in parallel over tiles (as
 * potts.cu). A transition is one checkerboard sweep of {@link PottsSteps} heat-bath or Metropolis updates (DESIGN §5).
 */
final class CpuPottsKernel implements TemperedKernel {
    private final CpuBackend backend;
    private final Potts model;
    private final int q;
    private final int l;
    private final int n;
    private final boolean heatBath;
    private boolean closed;

    CpuPottsKernel(CpuBackend backend, Potts model) {
        this.backend = backend;
        this.model = model;
        this.q = model.colours();
        this.l = model.size();
        this.n = model.sites();
        this.heatBath = model.moves() == Potts.Moves.HEATBATH;
    }

    @Override
    public int dimension() {
        return n;
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        CpuMatrix xm = states(x);
        backend.forEachTile(0, count, (t, from, to) -> {
            float[] row = new float[n];
            int[] words = new int[4];
            for (int r = from; r < to; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                for (int i = 0; i < n; i++) {
                    if ((i & 3) == 0) {
                        Philox.block(seed, PottsSteps.block(PottsSteps.BASE, i), firstChain + particle, step, StreamTag.MODEL,
                                words);
                    }
                    row[i] = PottsSteps.baseColour(Philox.toUniform(words[i & 3]), q);
                }
                xm.writeRow(particle, row, 0);
            }
        });
    }

    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int sweeps,
                       long seed, int step, int firstChain) {
        CpuMatrix xm = states(x);
        double[] weights = backend.own(logW).values();
        backend.forEachTile(0, count, (t, rowFrom, rowTo) -> {
            Row row = new Row();
            PottsSteps.weights(to * model.coupling(), row.s);
            for (int r = rowFrom; r < rowTo; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                row.read(xm, particle);
                weights[particle] += (to - from) * model.coupling() * agreements(row.x);
                for (int s = 0; s < sweeps; s++) {
                    sweep(row, to < from, seed, firstChain + particle, step + s);
                }
                row.write(xm, particle);
            }
        });
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int sweeps, long seed, int step, int firstChain) {
        CpuMatrix xm = states(x);
        double[] perParticle = betas instanceof Betas.PerParticle p ? backend.own(p.betas()).values() : null;
        double uniform = betas instanceof Betas.Uniform u ? u.beta() : 0;
        backend.forEachTile(0, count, (t, from, to) -> {
            Row row = new Row();
            for (int r = from; r < to; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                PottsSteps.weights((perParticle != null ? perParticle[particle] : uniform) * model.coupling(), row.s);
                row.read(xm, particle);
                for (int s = 0; s < sweeps; s++) {
                    sweep(row, false, seed, firstChain + particle, step + s);
                }
                row.write(xm, particle);
            }
        });
    }

    /** One configuration's colours and its conditional weights {@code s[k] = e^{-β J k}} at the row's β. */
    private final class Row {
        final int[] x = new int[n];
        final float[] f = new float[n];
        final float[] s = new float[5];
        final int[] words = new int[4];

        void read(CpuMatrix xm, int particle) {
            xm.readRow(particle, f, 0);
            for (int i = 0; i < n; i++) {
                x[i] = (int) f[i];
            }
        }

        void write(CpuMatrix xm, int particle) {
            for (int i = 0; i < n; i++) {
                f[i] = x[i];
            }
            xm.writeRow(particle, f, 0);
        }
    }

    /**
     * One checkerboard sweep of one configuration: colour 0 then 1, or 1 then 0 when {@code reversed} (the time
     * reversal of a forward sweep); a colour pass visits sites in increasing order, so each Philox block is drawn once
     * per pass.
     */
    private void sweep(Row row, boolean reversed, long seed, int chain, int step) {
        int[] x = row.x;
        int purpose = heatBath ? PottsSteps.HEATBATH : PottsSteps.METROPOLIS;
        for (int pass = 0; pass < 2; pass++) {
            int colour = reversed ? 1 - pass : pass;
            int block = -1;
            for (int r = 0; r < l; r++) {
                int up = (r + l - 1) % l * l;
                int down = (r + 1) % l * l;
                int here = r * l;
                for (int c = (r + colour) & 1; c < l; c += 2) {
                    int i = here + c;
                    int a = x[here + (c + 1) % l];
                    int b = x[here + (c + l - 1) % l];
                    int d = x[down + c];
                    int e = x[up + c];
                    int g = PottsSteps.block(purpose, i);
                    if (g != block) {
                        block = g;
                        Philox.block(seed, block, chain, step, StreamTag.MODEL, row.words);
                    }
                    if (heatBath) {
                        x[i] = PottsSteps.heatBath(q, a, b, d, e, row.s, Philox.toUniform(row.words[i & 3]));
                    } else {
                        int w = 2 * (i & 1);
                        x[i] = PottsSteps.metropolis(q, x[i], a, b, d, e, row.s, Philox.toUniform(row.words[w]),
                                Philox.toUniform(row.words[w + 1]));
                    }
                }
            }
        }
    }

    /** S(x): bonds to the right and down neighbour whose ends agree. */
    private int agreements(int[] x) {
        int s = 0;
        for (int r = 0; r < l; r++) {
            int here = r * l;
            int down = (r + 1) % l * l;
            for (int c = 0; c < l; c++) {
                int v = x[here + c];
                s += (v == x[here + (c + 1) % l] ? 1 : 0) + (v == x[down + c] ? 1 : 0);
            }
        }
        return s;
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        LinearPathRows.logDensity(backend, states(x), n, count, beta, out, this::energy);
    }

    /** log f_β = β J S(x) is linear in β: {@code logF = β_k J S}, {@code slope = J S}. */
    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        LinearPathRows.levels(backend, states(x), n, count, levelBetas, levels, logF, slope, this::energy);
    }

    /** {@code J S(x)} of one row. */
    private double energy(float[] row) {
        return model.coupling() * model.agreements(row, 0);
    }

    private CpuMatrix states(ParticleMatrix x) {
        if (closed) {
            throw new IllegalStateException("Potts kernel is closed");
        }
        return backend.own(x);
    }

    @Override
    public void close() {
        closed = true;
    }
}
