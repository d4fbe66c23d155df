package org.logz.cpu;

import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;

import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.backend.RbmOps;
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
 * units, one SGEMM {@code V = H Wᵀ}, a pass over the visible units. Uniform {@code q} of unit
 * {@code k} of particle {@code p} at step {@code s} is word {@code k % 4} of Philox block
 * {@code (k / 4, p, s, tag)}, as in {@code rbm_gibbs.cu}.
 *
 * <p>Sampling arithmetic, shared with the CUDA kernels so that both draw the same states except
 * where rounding flips a comparison: hidden {@code z = β·(u + b)}, visible
 * {@code z = (1-β)·a0 + β·(a + v)}, both in float32, {@code p = 1/(1 + e^{-z})}, unit on when
 * {@code uniform < p}. In {@link #annealStep} the hidden probabilities come from the float64
 * {@code e^{-|z|}} that the weight update needs anyway.
 */
final class CpuRbmOps implements RbmOps {
    private final CpuBackend backend;
    private final Rbm model;
    private final BaseRate baseRate;
    private final int n;
    private final int h;
    private final INDArray w;
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

    CpuRbmOps(CpuBackend backend, Rbm model, BaseRate baseRate) {
        if (baseRate.visible() != model.visible()) {
            throw new IllegalArgumentException("base rate has " + baseRate.visible() + " units, the model "
                    + model.visible());
        }
        this.backend = backend;
        this.model = model;
        this.baseRate = baseRate;
        this.n = model.visible();
        this.h = model.hidden();
        this.w = Nd4j.create(model.weights(), new long[] {n, h}, DataType.FLOAT);
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
    public Rbm model() {
        return model;
    }

    @Override
    public BaseRate baseRate() {
        return baseRate;
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step) {
        CpuMatrix xm = states(x, count);
        backend.forEachTile(count, (t, rows) -> {
            FloatBuffer xb = xm.buffer(t);
            int[] words = new int[4];
            for (int r = 0; r < rows; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                for (int i = 0; i < n; i += 4) {
                    Philox.block(seed, i >>> 2, particle, step, StreamTag.BASE, words);
                    for (int q = 0; q < 4 && i + q < n; q++) {
                        xb.put(r * n + i + q, Philox.toUniform(words[q]) < baseProbability[i + q] ? 1f : 0f);
                    }
                }
            }
        });
    }

    @Override
    public void annealStep(ParticleMatrix x, int count, double from, double to, ParticleVector logW,
                           boolean transition, long seed, int step) {
        CpuMatrix xm = states(x, count);
        CpuVector lw = backend.own(logW);
        lw.checkCount(count);
        double[] weights = lw.values();
        ensureScratch(count);
        float beta = (float) to;
        backend.forEachTile(count, (t, rows) -> {
            Scratch s = scratch.get(t);
            FloatBuffer xb = xm.buffer(t);
            Nd4j.gemm(xm.tile(t), w, s.u, false, false, 1.0, 0.0);
            int[] words = new int[4];
            for (int r = 0; r < rows; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                double slope = 0;
                for (int i = 0; i < n; i++) {
                    slope += visibleSlope[i] * xb.get(r * n + i);
                }
                double delta = (to - from) * slope;
                for (int j = 0; j < h; j += 4) {
                    if (transition) {
                        Philox.block(seed, j >>> 2, particle, step, StreamTag.HIDDEN, words);
                    }
                    for (int q = 0; q < 4 && j + q < h; q++) {
                        int k = r * h + j + q;
                        double field = s.uBuf.get(k) + b[j + q];
                        double zTo = to * field;
                        double tTo = Math.exp(-Math.abs(zTo));
                        delta += Math.max(zTo, 0.0) + Math.log(1.0 + tTo) - LogSpace.softplusFast(from * field);
                        if (transition) {
                            float p = (float) (zTo >= 0 ? 1.0 / (1.0 + tTo) : tTo / (1.0 + tTo));
                            s.hBuf.put(k, Philox.toUniform(words[q]) < p ? 1f : 0f);
                        }
                    }
                }
                weights[particle] += delta;
            }
            if (transition) {
                sampleVisible(xm, s, t, rows, beta, seed, step);
            }
        });
    }

    @Override
    public void gibbs(ParticleMatrix x, int count, double beta, int sweeps, long seed, int step) {
        if (sweeps < 0) {
            throw new IllegalArgumentException("sweeps must be non-negative, got " + sweeps);
        }
        CpuMatrix xm = states(x, count);
        ensureScratch(count);
        float bf = (float) beta;
        backend.forEachTile(count, (t, rows) -> {
            Scratch s = scratch.get(t);
            for (int sweep = 0; sweep < sweeps; sweep++) {
                Nd4j.gemm(xm.tile(t), w, s.u, false, false, 1.0, 0.0);
                sampleHidden(s, t, rows, bf, seed, step + sweep);
                sampleVisible(xm, s, t, rows, bf, seed, step + sweep);
            }
        });
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        CpuMatrix xm = states(x, count);
        CpuVector ov = backend.own(out);
        ov.checkCount(count);
        double[] values = ov.values();
        double[] visibleCoefficient = new double[n];
        for (int i = 0; i < n; i++) {
            visibleCoefficient[i] = (1.0 - beta) * a0[i] + beta * a[i];
        }
        ensureScratch(count);
        backend.forEachTile(count, (t, rows) -> {
            Scratch s = scratch.get(t);
            FloatBuffer xb = xm.buffer(t);
            Nd4j.gemm(xm.tile(t), w, s.u, false, false, 1.0, 0.0);
            for (int r = 0; r < rows; r++) {
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

    /** {@code h ~ σ(β (u + b))} in float32 from {@code s.u}. Writes {@code s.hid}. */
    private void sampleHidden(Scratch s, int t, int rows, float beta, long seed, int step) {
        int[] words = new int[4];
        for (int r = 0; r < rows; r++) {
            int particle = t * CpuMatrix.TILE_ROWS + r;
            for (int j = 0; j < h; j += 4) {
                Philox.block(seed, j >>> 2, particle, step, StreamTag.HIDDEN, words);
                for (int q = 0; q < 4 && j + q < h; q++) {
                    int k = r * h + j + q;
                    float z = beta * (s.uBuf.get(k) + b[j + q]);
                    s.hBuf.put(k, Philox.toUniform(words[q]) < logistic(z) ? 1f : 0f);
                }
            }
        }
    }

    /** {@code V = H Wᵀ}, then {@code x ~ σ((1-β) a0 + β (a + v))} in float32. Writes tile t of x. */
    private void sampleVisible(CpuMatrix xm, Scratch s, int t, int rows, float beta, long seed, int step) {
        Nd4j.gemm(s.hid, w, s.v, false, true, 1.0, 0.0);
        FloatBuffer xb = xm.buffer(t);
        float oneMinusBeta = 1f - beta;
        int[] words = new int[4];
        for (int r = 0; r < rows; r++) {
            int particle = t * CpuMatrix.TILE_ROWS + r;
            for (int i = 0; i < n; i += 4) {
                Philox.block(seed, i >>> 2, particle, step, StreamTag.VISIBLE, words);
                for (int q = 0; q < 4 && i + q < n; q++) {
                    int k = r * n + i + q;
                    float z = oneMinusBeta * a0[i + q] + beta * (a[i + q] + s.vBuf.get(k));
                    xb.put(k, Philox.toUniform(words[q]) < logistic(z) ? 1f : 0f);
                }
            }
        }
    }

    /** {@code 1/(1 + e^{-z})} in float32; saturates to exactly 0 or 1, never NaN. */
    static float logistic(float z) {
        return 1f / (1f + (float) Math.exp(-z));
    }

    private CpuMatrix states(ParticleMatrix x, int count) {
        checkOpen();
        CpuMatrix xm = backend.own(x);
        xm.checkRows(count);
        if (xm.cols() != n) {
            throw new IllegalArgumentException("particle matrix has " + xm.cols() + " columns, the RBM " + n
                    + " visible units");
        }
        return xm;
    }

    private void ensureScratch(int count) {
        int tiles = CpuMatrix.tileCount(count);
        while (scratch.size() < tiles) {
            scratch.add(new Scratch(n, h));
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("RBM ops are closed");
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
