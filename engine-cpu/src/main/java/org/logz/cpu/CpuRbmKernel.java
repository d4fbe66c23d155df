package org.logz.cpu;

import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.ParticleState;
import org.logz.kernel.SequentialKernel;
import org.logz.kernel.TemperedKernel;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;
import org.logz.random.StreamTag;

/**
 * RBM kernels on the CPU. Per tile of {@value CpuMatrix#TILE_ROWS} particles: the product {@code U = X W}, the hidden
 * draws, the product {@code V = H Wᵀ}, the visible draws, each through {@link RbmMath} (the native kernels where they
 * are built, else the same definitions in Java; DESIGN §4 "CPU kernels"). Products cover the live rows only and every
 * output is a fixed sequence of multiply-adds, so a row's results never depend on the other rows, the tile or the
 * thread; the sequential path multiplies only the visible units entered so far. Uniform {@code q} of unit {@code k}
 * of particle {@code p} at step {@code s} is word {@code k % 4} of Philox block {@code (k / 4, p, s, tag)}, as in
 * {@code rbm_gibbs.cu}.
 *
 * <p>Sampling arithmetic, shared with the CUDA kernels so that both draw the same states except where rounding flips
 * a comparison: hidden {@code z = β·(u + b)}, visible {@code z = (1-β)·a0 + β·(a + v)}, both in float32,
 * {@code p = 1/(1 + e^{-z})}, unit on when {@code uniform < p} ({@link RbmDraws}). An AIS step's hidden draw takes p
 * from the float64 {@code e^{-|z|}}; its weight and the all-level densities of tempered sampling use the kernels' own
 * exponentials and logarithms ({@link FastMath}; the levels in float32 with the error bound of DESIGN §4).
 *
 * <p>The tiles run in balanced pieces ({@link CpuBackend#partition}), and the product of a piece's states is kept with
 * its tile's write count: tempered sampling asks for every level's density of the states a sweep just drew and then
 * sweeps them again, and the second product is the first.
 */
final class CpuRbmKernel implements TemperedKernel, SequentialKernel {
    private final CpuBackend backend;
    private final int n;
    private final int h;
    private final float[] wHost;
    private final float[] a;
    private final float[] b;
    private final float[] a0;
    /** {@code σ(a0)}: base-rate probabilities. */
    private final float[] baseProbability;
    private final RbmMath math;
    private final List<Scratch> scratch = new ArrayList<>();
    private boolean closed;

    /**
     * Per-piece work buffers ({@link CpuBackend#partition}): piece {@code p} uses {@code scratch.get(p)}, indexed by
     * the rows of its tile, with as many rows as the largest tile a piece p has covered.
     */
    private final class Scratch {
        final int rows;
        final Tile u;
        final Tile hid;
        final Tile v;

        Scratch(int rows) {
            this.rows = rows;
            this.u = new Tile(rows, h);
            this.hid = new Tile(rows, h);
            this.v = new Tile(rows, n);
        }

        /** What {@link #u} holds: the product of rows [from, to) of this matrix's tile at this write count. */
        CpuMatrix productOf;
        int productTile;
        long productVersion;
        int productFrom;
        int productTo;

        /** {@code u = x W} for rows [from, to) of tile t of xm, unless u holds it already. */
        void product(CpuMatrix xm, int t, int from, int to) {
            Tile x = xm.readTile(t);
            // the write count before the product: pieces of the same tile write other rows meanwhile, which only
            // makes a later check miss
            long version = xm.version(t);
            if (productOf == xm && productTile == t && productVersion == version && productFrom == from
                    && productTo == to) {
                return;
            }
            math.productXw(x, from, to, n, u);
            productOf = xm;
            productTile = t;
            productVersion = version;
            productFrom = from;
            productTo = to;
        }

        /** u is about to hold something else. */
        void forget() {
            productOf = null;
        }

        void close() {
            u.close();
            hid.close();
            v.close();
        }
    }

    CpuRbmKernel(CpuBackend backend, Rbm model, BaseRate baseRate) {
        this.backend = backend;
        this.n = model.visible();
        this.h = model.hidden();
        this.wHost = model.weights();
        this.a = model.visibleBias();
        this.b = model.hiddenBias();
        this.a0 = baseRate.logOdds();
        this.baseProbability = new float[n];
        for (int i = 0; i < n; i++) {
            baseProbability[i] = (float) LogSpace.sigmoid(a0[i]);
        }
        this.math = RbmMath.create(model, a0);
    }

    /** Which arithmetic runs: "native avx512", "native generic", "Java". */
    String arithmetic() {
        return math.description();
    }

    @Override
    public int dimension() {
        return n;
    }

    @Override
    public int length() {
        return n;
    }

    /** The visible states x (N columns) and the pre-activations g = b + xW (H columns). */
    @Override
    public int[] stateColumns() {
        return new int[] {n, h};
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        CpuMatrix xm = states(x);
        backend.forEachTile(0, count, (t, from, to) -> {
            FloatBuffer xb = xm.buffer(t);
            float[] uniforms = new float[n];
            float[] row = new float[n];
            for (int r = from; r < to; r++) {
                RbmDraws.uniforms(seed, firstChain + t * CpuMatrix.TILE_ROWS + r, step, StreamTag.BASE, uniforms);
                for (int i = 0; i < n; i++) {
                    row[i] = RbmDraws.bernoulli(uniforms[i], baseProbability[i]);
                }
                xb.put(r * n, row, 0, n);
            }
        });
    }

    /** The first transition shares the product xW with the weight increment; the rest are plain sweeps. */
    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions,
                       long seed, int step, int firstChain) {
        CpuMatrix xm = states(x);
        double[] weights = backend.own(logW).values();
        boolean transition = transitions > 0;
        float[] beta = constantBetas((float) to);
        forEachPiece(xm, 0, count, (t, rowFrom, rowTo, s) -> {
            int particle0 = firstChain + t * CpuMatrix.TILE_ROWS;
            s.product(xm, t, rowFrom, rowTo);
            math.anneal(s.u, xm.readTile(t), rowFrom, rowTo, from, to, transition, seed, particle0, step, StreamTag.HIDDEN,
                    weights, t * CpuMatrix.TILE_ROWS, s.hid);
            if (transition) {
                sampleVisible(xm, s, t, rowFrom, rowTo, n, beta, seed, step, particle0);
            }
        });
        if (transitions > 1) {
            transition(x, count, Betas.of(to), transitions - 1, seed, step + 1, firstChain);
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int sweeps, long seed, int step, int firstChain) {
        CpuMatrix xm = states(x);
        double[] perParticle = perParticle(betas);
        forEachPiece(xm, 0, count, (t, from, to, s) -> {
            float[] beta = tileBetas(betas, perParticle, t);
            int particle0 = firstChain + t * CpuMatrix.TILE_ROWS;
            for (int sweep = 0; sweep < sweeps; sweep++) {
                s.product(xm, t, from, to);
                math.sampleHidden(s.u, false, from, to, beta, seed, particle0, step + sweep, StreamTag.HIDDEN, s.hid);
                sampleVisible(xm, s, t, from, to, n, beta, seed, step + sweep, particle0);
            }
        });
    }

    /** The per-particle inverse temperatures as a heap array, or null for a uniform β. */
    private double[] perParticle(Betas betas) {
        if (betas instanceof Betas.PerParticle p) {
            return backend.own(p.betas()).values();
        }
        return null;
    }

    /** The same inverse temperature for every row of a tile. */
    private static float[] constantBetas(float beta) {
        float[] out = new float[CpuMatrix.TILE_ROWS];
        Arrays.fill(out, beta);
        return out;
    }

    /** Inverse temperatures of the rows of tile t, in float32 as the kernels use them. */
    private static float[] tileBetas(Betas betas, double[] perParticle, int t) {
        float[] out = new float[CpuMatrix.TILE_ROWS];
        for (int r = 0; r < out.length; r++) {
            int particle = t * CpuMatrix.TILE_ROWS + r;
            out[r] = perParticle != null ? (particle < perParticle.length ? (float) perParticle[particle] : 0f)
                    : (float) ((Betas.Uniform) betas).beta();
        }
        return out;
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        CpuMatrix xm = states(x);
        double[] betas = backend.own(levelBetas).values();
        double[] logValues = backend.own(logF).values();
        double[] slopeValues = backend.own(slope).values();
        forEachPiece(xm, 0, count, (t, from, to, s) -> {
            s.product(xm, t, from, to);
            math.levels(s.u, xm.readTile(t), from, to, betas, levels, logValues, slopeValues,
                    t * CpuMatrix.TILE_ROWS * levels);
        });
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        CpuMatrix xm = states(x);
        double[] values = backend.own(out).values();
        double[] visibleCoefficient = new double[n];
        for (int i = 0; i < n; i++) {
            visibleCoefficient[i] = (1.0 - beta) * a0[i] + beta * a[i];
        }
        forEachPiece(xm, 0, count, (t, from, to, s) -> {
            s.product(xm, t, from, to);
            FloatBuffer xb = xm.readBuffer(t);
            for (int r = from; r < to; r++) {
                double sum = 0;
                for (int i = 0; i < n; i++) {
                    sum += visibleCoefficient[i] * xb.get(r * n + i);
                }
                for (int j = 0; j < h; j++) {
                    sum += LogSpace.softplusFast(beta * (double) (s.u.buffer.get(r * h + j) + b[j]));
                }
                values[t * CpuMatrix.TILE_ROWS + r] = sum;
            }
        });
    }

    /** {@code aᵀx + Σ_j softplus(b_j + xᵀW_:j)}: units not yet entered are 0, so this is {@code log f_n}. */
    @Override
    public void logDensity(ParticleState state, int count, ParticleVector out) {
        logDensity(state.variables(), count, 1.0, out);
    }

    @Override
    public void reset(ParticleState state, int first, int count) {
        CpuMatrix xm = states(state.variables());
        CpuMatrix gm = states(state.matrix(1));
        backend.forEachTile(first, count, (t, from, to) -> {
            FloatBuffer xb = xm.buffer(t);
            FloatBuffer gb = gm.buffer(t);
            for (int r = from; r < to; r++) {
                for (int i = 0; i < n; i++) {
                    xb.put(r * n + i, 0f);
                }
                gb.put(r * h, b, 0, h);
            }
        });
    }

    @Override
    public void refresh(ParticleState state, int first, int count) {
        CpuMatrix xm = states(state.variables());
        CpuMatrix gm = states(state.matrix(1));
        forEachPiece(xm, first, count, (t, from, to, s) -> refreshPreActivations(xm, gm, s, t, from, to, n));
    }

    @Override
    public void move(ParticleState state, int active, int first, int count, int sweeps, long seed, int step) {
        if (active == 0) {
            return;
        }
        CpuMatrix xm = states(state.variables());
        CpuMatrix gm = states(state.matrix(1));
        float[] one = constantBetas(1f);
        forEachPiece(xm, first, count, (t, from, to, s) -> {
            int particle0 = t * CpuMatrix.TILE_ROWS;
            for (int sweep = 0; sweep < sweeps; sweep++) {
                math.sampleHidden(gm.readTile(t), true, from, to, one, seed, particle0, step + sweep, StreamTag.HIDDEN, s.hid);
                sampleVisible(xm, s, t, from, to, active, one, seed, step + sweep, particle0);
                refreshPreActivations(xm, gm, s, t, from, to, active);
            }
        });
    }

    @Override
    public void smooth(ParticleState state, int unit, int first, int count, ParticleVector logW) {
        CpuMatrix gm = states(state.matrix(1));
        double[] weights = backend.own(logW).values();
        backend.forEachTile(first, count, (t, from, to) -> {
            FloatBuffer gb = gm.readBuffer(t);
            for (int r = from; r < to; r++) {
                weights[t * CpuMatrix.TILE_ROWS + r] += LogSpace.softplus(entryLogit(gb, r, unit));
            }
        });
    }

    @Override
    public void augment(ParticleState state, int unit, int first, int count, long seed, int step) {
        CpuMatrix xm = states(state.variables());
        CpuMatrix gm = states(state.matrix(1));
        int row = unit * h;
        backend.forEachTile(first, count, (t, from, to) -> {
            FloatBuffer xb = xm.buffer(t);
            FloatBuffer gb = gm.buffer(t);
            for (int r = from; r < to; r++) {
                float uniform = RbmDraws.uniform(seed, t * CpuMatrix.TILE_ROWS + r, step, StreamTag.AUGMENT, 0);
                float on = RbmDraws.bernoulli(uniform, (float) LogSpace.sigmoid(entryLogit(gb, r, unit)));
                xb.put(r * n + unit, on);
                if (on == 1f) {
                    for (int j = 0; j < h; j++) {
                        gb.put(r * h + j, gb.get(r * h + j) + wHost[row + j]);
                    }
                }
            }
        });
    }

    /**
     * {@code a_u + Σ_j [softplus(g_j + W_uj) - softplus(g_j)]}: the log-odds of unit u being on given
     * the units already entered (ARM eq. 14), in float64.
     */
    private double entryLogit(FloatBuffer gb, int r, int unit) {
        int row = unit * h;
        double s = a[unit];
        for (int j = 0; j < h; j++) {
            double gj = gb.get(r * h + j);
            s += LogSpace.softplusFast(gj + wHost[row + j]) - LogSpace.softplusFast(gj);
        }
        return s;
    }

    /** {@code g = b + xW} for live rows of tile t over the first {@code active} visible units (the rest are 0). */
    private void refreshPreActivations(CpuMatrix xm, CpuMatrix gm, Scratch s, int t, int from, int to, int active) {
        s.forget();
        math.productXw(xm.readTile(t), from, to, active, s.u);
        FloatBuffer gb = gm.buffer(t);
        for (int r = from; r < to; r++) {
            for (int j = 0; j < h; j++) {
                gb.put(r * h + j, s.u.buffer.get(r * h + j) + b[j]);
            }
        }
    }

    /**
     * {@code V = H Wᵀ} over the first {@code active} visible units, then their draws at β of row r = {@code beta[r]}.
     * Writes those units of the live rows of tile t of x. Row r draws from particle {@code particle0 + r}'s streams.
     */
    private void sampleVisible(CpuMatrix xm, Scratch s, int t, int from, int to, int active, float[] beta, long seed,
                               int step, int particle0) {
        math.productHwt(s.hid, from, to, active, s.v);
        math.sampleVisible(s.v, from, to, active, beta, seed, particle0, step, StreamTag.VISIBLE, xm.tile(t));
    }

    private CpuMatrix states(ParticleMatrix m) {
        checkOpen();
        return backend.own(m);
    }

    /** Work on rows [from, to) of tile t with the piece's scratch. */
    @FunctionalInterface
    private interface PieceTask {
        void run(int t, int from, int to, Scratch s);
    }

    /** Runs {@code task} on particles [first, first + count) of xm's tiles in balanced pieces, each with its scratch. */
    private void forEachPiece(CpuMatrix xm, int first, int count, PieceTask task) {
        List<List<CpuBackend.Piece>> runs = backend.partition(first, count);
        for (List<CpuBackend.Piece> run : runs) {
            for (CpuBackend.Piece p : run) {
                int rows = CpuMatrix.rowsOf(xm.rows(), p.tile());
                if (p.index() == scratch.size()) {
                    scratch.add(new Scratch(rows));
                } else if (scratch.get(p.index()).rows < rows) {
                    scratch.get(p.index()).close();
                    scratch.set(p.index(), new Scratch(rows));
                }
            }
        }
        backend.forEachPiece(runs, p -> task.run(p.tile(), p.from(), p.to(), scratch.get(p.index())));
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("RBM kernel is closed");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        scratch.forEach(Scratch::close);
        scratch.clear();
        math.close();
    }
}
