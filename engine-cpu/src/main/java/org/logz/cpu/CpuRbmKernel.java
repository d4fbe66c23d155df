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
import org.logz.random.Philox;
import org.logz.random.StreamTag;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * RBM kernels on the CPU. Per tile: one SGEMM {@code U = X W} (64×N · N×H), a pass over the hidden
 * units, one SGEMM {@code V = H Wᵀ}, a pass over the visible units. Products always cover whole
 * tiles and all N units (units not yet entered on the sequential path are zero), so a row's
 * arithmetic never depends on which other rows are live; results are written for live rows only.
 * Uniform {@code q} of unit {@code k} of particle {@code p} at step {@code s} is word {@code k % 4} of
 * Philox block {@code (k / 4, p, s, tag)}, as in {@code rbm_gibbs.cu}.
 *
 * <p>Sampling arithmetic, shared with the CUDA kernels so that both draw the same states except
 * where rounding flips a comparison: hidden {@code z = β·(u + b)}, visible
 * {@code z = (1-β)·a0 + β·(a + v)}, both in float32, {@code p = 1/(1 + e^{-z})}, unit on when
 * {@code uniform < p}. In {@link #annealStep} the hidden probabilities come from the float64
 * {@code e^{-|z|}} that the weight update needs anyway; smoothing and augmentation work in float64.
 */
final class CpuRbmKernel implements TemperedKernel, SequentialKernel {
    private final CpuBackend backend;
    private final int n;
    private final int h;
    private final INDArray w;
    private final float[] wHost;
    private final float[] a;
    private final float[] b;
    private final float[] a0;
    /** {@code a - a0}: the visible part of {@code d log f_β / dβ}. */
    private final double[] visibleSlope;
    /** {@code σ(a0)}: base-rate probabilities. */
    private final float[] baseProbability;
    private final List<Scratch> scratch = new ArrayList<>();
    private boolean closed;

    /** Per-tile work buffers; tile {@code t} of any matrix uses {@code scratch.get(t)}. */
    private static final class Scratch {
        final INDArray u;
        final INDArray hid;
        final INDArray v;
        final FloatBuffer uBuf;
        final FloatBuffer hBuf;
        final FloatBuffer vBuf;

        Scratch(int visible, int hidden) {
            u = Nd4j.zeros(DataType.FLOAT, CpuMatrix.TILE_ROWS, hidden);
            hid = Nd4j.zeros(DataType.FLOAT, CpuMatrix.TILE_ROWS, hidden);
            v = Nd4j.zeros(DataType.FLOAT, CpuMatrix.TILE_ROWS, visible);
            uBuf = u.data().asNioFloat();
            hBuf = hid.data().asNioFloat();
            vBuf = v.data().asNioFloat();
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
        this.w = Nd4j.create(wHost, new long[] {n, h}, DataType.FLOAT);
        this.a = model.visibleBias();
        this.b = model.hiddenBias();
        this.a0 = baseRate.logOdds();
        this.visibleSlope = new double[n];
        this.baseProbability = new float[n];
        for (int i = 0; i < n; i++) {
            visibleSlope[i] = (double) a[i] - a0[i];
            baseProbability[i] = (float) LogSpace.sigmoid(a0[i]);
        }
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
                uniforms(seed, firstChain + t * CpuMatrix.TILE_ROWS + r, step, StreamTag.BASE, uniforms);
                for (int i = 0; i < n; i++) {
                    row[i] = bernoulli(uniforms[i], baseProbability[i]);
                }
                xb.put(r * n, row, 0, n);
            }
        });
    }

    /** The first transition shares the product xW with the weight increment; the rest are plain sweeps. */
    @Override
    public void anneal(ParticleMatrix x, int count, double from, double to, ParticleVector logW, int transitions,
                       long seed, int step, int firstChain) {
        annealStep(x, count, from, to, logW, transitions > 0, seed, step, firstChain);
        if (transitions > 1) {
            transition(x, count, Betas.of(to), transitions - 1, seed, step + 1, firstChain);
        }
    }

    private void annealStep(ParticleMatrix x, int count, double from, double to, ParticleVector logW,
                            boolean transition, long seed, int step, int firstChain) {
        CpuMatrix xm = states(x);
        double[] weights = backend.own(logW).values();
        ensureScratch(xm);
        float beta = (float) to;
        backend.forEachTile(0, count, (t, rowFrom, rowTo) -> {
            Scratch s = scratch.get(t);
            FloatBuffer xb = xm.buffer(t);
            Nd4j.gemm(xm.tile(t), w, s.u, false, false, 1.0, 0.0);
            float[] field = new float[h];
            float[] uniforms = new float[h];
            float[] row = new float[h];
            for (int r = rowFrom; r < rowTo; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                double slope = 0;
                for (int i = 0; i < n; i++) {
                    slope += visibleSlope[i] * xb.get(r * n + i);
                }
                double delta = (to - from) * slope;
                s.uBuf.get(r * h, field, 0, h);
                if (transition) {
                    uniforms(seed, firstChain + particle, step, StreamTag.HIDDEN, uniforms);
                }
                for (int j = 0; j < h; j++) {
                    double u = field[j] + b[j];
                    double zTo = to * u;
                    double tTo = Math.exp(-Math.abs(zTo));
                    delta += Math.max(zTo, 0.0) + Math.log(1.0 + tTo) - LogSpace.softplusFast(from * u);
                    row[j] = bernoulli(uniforms[j], (float) (zTo >= 0 ? 1.0 / (1.0 + tTo) : tTo / (1.0 + tTo)));
                }
                if (transition) {
                    s.hBuf.put(r * h, row, 0, h);
                }
                weights[particle] += delta;
            }
            if (transition) {
                sampleVisible(xm, s, t, rowFrom, rowTo, n, constantBetas(beta), seed, step, firstChain);
            }
        });
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int sweeps, long seed, int step, int firstChain) {
        CpuMatrix xm = states(x);
        double[] perParticle = perParticle(betas);
        ensureScratch(xm);
        backend.forEachTile(0, count, (t, from, to) -> {
            Scratch s = scratch.get(t);
            float[] beta = tileBetas(betas, perParticle, t);
            for (int sweep = 0; sweep < sweeps; sweep++) {
                Nd4j.gemm(xm.tile(t), w, s.u, false, false, 1.0, 0.0);
                sampleHidden(s.uBuf, false, s, t, from, to, beta, seed, step + sweep, firstChain);
                sampleVisible(xm, s, t, from, to, n, beta, seed, step + sweep, firstChain);
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
        ensureScratch(xm);
        backend.forEachTile(0, count, (t, from, to) -> {
            Scratch s = scratch.get(t);
            FloatBuffer xb = xm.buffer(t);
            Nd4j.gemm(xm.tile(t), w, s.u, false, false, 1.0, 0.0);
            double[] field = new double[h];
            for (int r = from; r < to; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                double base = 0;
                double target = 0;
                for (int i = 0; i < n; i++) {
                    double xi = xb.get(r * n + i);
                    base += a0[i] * xi;
                    target += a[i] * xi;
                }
                for (int j = 0; j < h; j++) {
                    field[j] = s.uBuf.get(r * h + j) + b[j];
                }
                for (int k = 0; k < levels; k++) {
                    double beta = betas[k];
                    double value = (1 - beta) * base + beta * target;
                    double derivative = target - base;
                    for (int j = 0; j < h; j++) {
                        double z = beta * field[j];
                        double e = Math.exp(-Math.abs(z));
                        value += Math.max(z, 0.0) + Math.log(1.0 + e);
                        derivative += field[j] * (z >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e));
                    }
                    logValues[particle * levels + k] = value;
                    slopeValues[particle * levels + k] = derivative;
                }
            }
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
        ensureScratch(xm);
        backend.forEachTile(0, count, (t, from, to) -> {
            Scratch s = scratch.get(t);
            FloatBuffer xb = xm.buffer(t);
            Nd4j.gemm(xm.tile(t), w, s.u, false, false, 1.0, 0.0);
            for (int r = from; r < to; r++) {
                double sum = 0;
                for (int i = 0; i < n; i++) {
                    sum += visibleCoefficient[i] * xb.get(r * n + i);
                }
                for (int j = 0; j < h; j++) {
                    sum += LogSpace.softplusFast(beta * (double) (s.uBuf.get(r * h + j) + b[j]));
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
        ensureScratch(xm);
        backend.forEachTile(first, count, (t, from, to) -> refreshPreActivations(xm, gm, scratch.get(t), t, from, to));
    }

    @Override
    public void move(ParticleState state, int active, int first, int count, int sweeps, long seed, int step) {
        if (active == 0) {
            return;
        }
        CpuMatrix xm = states(state.variables());
        CpuMatrix gm = states(state.matrix(1));
        ensureScratch(xm);
        float[] one = constantBetas(1f);
        backend.forEachTile(first, count, (t, from, to) -> {
            Scratch s = scratch.get(t);
            FloatBuffer gb = gm.buffer(t);
            for (int sweep = 0; sweep < sweeps; sweep++) {
                sampleHidden(gb, true, s, t, from, to, one, seed, step + sweep, 0);
                sampleVisible(xm, s, t, from, to, active, one, seed, step + sweep, 0);
                refreshPreActivations(xm, gm, s, t, from, to);
            }
        });
    }

    @Override
    public void smooth(ParticleState state, int unit, int first, int count, ParticleVector logW) {
        CpuMatrix gm = states(state.matrix(1));
        double[] weights = backend.own(logW).values();
        backend.forEachTile(first, count, (t, from, to) -> {
            FloatBuffer gb = gm.buffer(t);
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
            float[] uniform = new float[1];
            for (int r = from; r < to; r++) {
                uniforms(seed, t * CpuMatrix.TILE_ROWS + r, step, StreamTag.AUGMENT, uniform);
                float on = bernoulli(uniform[0], (float) LogSpace.sigmoid(entryLogit(gb, r, unit)));
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

    /** {@code g = b + xW} for live rows of tile t, through the tile's scratch product. */
    private void refreshPreActivations(CpuMatrix xm, CpuMatrix gm, Scratch s, int t, int from, int to) {
        Nd4j.gemm(xm.tile(t), w, s.u, false, false, 1.0, 0.0);
        FloatBuffer gb = gm.buffer(t);
        for (int r = from; r < to; r++) {
            for (int j = 0; j < h; j++) {
                gb.put(r * h + j, s.uBuf.get(r * h + j) + b[j]);
            }
        }
    }

    /**
     * {@code h ~ σ(β·z)} in float32 with {@code z = field} when {@code fieldHasBias} (the sequential
     * path's g) and {@code z = field + b} otherwise (a fresh product xW), β of row r at {@code beta[r]}.
     * Writes {@code s.hid}. Row r of tile t draws from chain {@code firstChain + t·TILE_ROWS + r}'s streams.
     */
    private void sampleHidden(FloatBuffer field, boolean fieldHasBias, Scratch s, int t, int from, int to, float[] beta,
                              long seed, int step, int firstChain) {
        float[] z = new float[h];
        float[] uniforms = new float[h];
        float[] row = new float[h];
        for (int r = from; r < to; r++) {
            field.get(r * h, z, 0, h);
            uniforms(seed, firstChain + t * CpuMatrix.TILE_ROWS + r, step, StreamTag.HIDDEN, uniforms);
            for (int j = 0; j < h; j++) {
                row[j] = bernoulli(uniforms[j], logistic(beta[r] * (fieldHasBias ? z[j] : z[j] + b[j])));
            }
            s.hBuf.put(r * h, row, 0, h);
        }
    }

    /**
     * {@code V = H Wᵀ}, then {@code x_i ~ σ((1-β) a0_i + β (a_i + v_i))} in float32 for units
     * {@code i < active}, β of row r at {@code beta[r]}. Writes live rows of tile t of x. Row r of tile t draws from
     * chain {@code firstChain + t·TILE_ROWS + r}'s streams.
     */
    private void sampleVisible(CpuMatrix xm, Scratch s, int t, int from, int to, int active, float[] beta, long seed,
                               int step, int firstChain) {
        Nd4j.gemm(s.hid, w, s.v, false, true, 1.0, 0.0);
        FloatBuffer xb = xm.buffer(t);
        float[] field = new float[active];
        float[] uniforms = new float[active];
        float[] row = new float[active];
        for (int r = from; r < to; r++) {
            s.vBuf.get(r * n, field, 0, active);
            uniforms(seed, firstChain + t * CpuMatrix.TILE_ROWS + r, step, StreamTag.VISIBLE, uniforms);
            float oneMinusBeta = 1f - beta[r];
            for (int i = 0; i < active; i++) {
                row[i] = bernoulli(uniforms[i], logistic(oneMinusBeta * a0[i] + beta[r] * (a[i] + field[i])));
            }
            xb.put(r * n, row, 0, active);
        }
    }

    /**
     * The uniforms of one particle's units for one draw: unit k gets word {@code k % 4} of block
     * {@code (k / 4, particle, step, tag)}.
     */
    private static void uniforms(long seed, int particle, int step, int tag, float[] out) {
        int[] words = new int[4];
        int units = out.length;
        for (int i = 0; i < units; i += 4) {
            Philox.block(seed, i >>> 2, particle, step, tag, words);
            for (int q = 0; q < 4 && i + q < units; q++) {
                out[i + q] = Philox.toUniform(words[q]);
            }
        }
    }

    /**
     * {@code uniform < p ? 1 : 0} without a branch (the outcome is a coin flip, which a branch
     * predictor cannot learn; a branch here costs half the time of a sweep): the sign bit of
     * {@code uniform - p}, which is set exactly when {@code uniform < p}, since rounding never
     * changes the sign of a difference.
     */
    private static float bernoulli(float uniform, float p) {
        return Float.floatToRawIntBits(uniform - p) >>> 31;
    }

    /** {@code 1/(1 + e^{-z})} in float32; saturates to exactly 0 or 1, never NaN. */
    static float logistic(float z) {
        return 1f / (1f + (float) Math.exp(-z));
    }

    private CpuMatrix states(ParticleMatrix m) {
        checkOpen();
        return backend.own(m);
    }

    private void ensureScratch(CpuMatrix xm) {
        int tiles = CpuMatrix.tileCount(xm.rows());
        while (scratch.size() < tiles) {
            scratch.add(new Scratch(n, h));
        }
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
        w.close();
    }
}
