package org.logz.cuda;

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
 * RBM kernels on the device. Row-major states X (rows × N) and pre-activations G (rows × H) live in
 * the caller's matrices; W, the biases and the base rate live here, with scratch U (xW), H (hidden
 * states) and V (hWᵀ) sized to the largest batch seen. Products go through cuBLAS (column-major:
 * U = XW is {@code sgemm(N, N, H, rows, k, W, H, X, N, U, H)}, V = HWᵀ is
 * {@code sgemm(T, N, active, rows, H, W, H, H, H, V, N)}) followed by a sampling kernel, or through the
 * tiled GEMM kernels with the sampling fused in; the device picks. Only scalars cross to the host.
 */
final class CudaRbmKernel implements TemperedKernel, SequentialKernel {
    private final CudaBackend backend;
    private final CudaDevice device;
    private final GibbsKernels gibbs;
    private final WeightKernels weights;
    private final BaseRate baseRate;
    private final int n;
    private final int h;
    private final float[] visibleBias;
    private final CudaVector[] doubles;
    private final CudaMatrix parameters;
    private final long w;
    private final long a;
    private final long b;
    private final long a0;
    private final long baseProbability;
    private final long slope;
    private final CudaVector coefficient;
    private CudaMatrix u;
    private CudaMatrix hidden;
    private CudaMatrix v;
    private boolean closed;

    CudaRbmKernel(CudaBackend backend, Rbm model, BaseRate baseRate) {
        this.backend = backend;
        this.device = backend.device();
        this.gibbs = backend.launcher(GibbsKernels.class, GibbsKernels::new);
        this.weights = backend.launcher(WeightKernels.class, WeightKernels::new);
        this.baseRate = baseRate;
        this.n = model.visible();
        this.h = model.hidden();
        this.visibleBias = model.visibleBias();
        float[] a0Host = baseRate.logOdds();
        float[] probability = new float[n];
        double[] slopeHost = new double[n];
        for (int i = 0; i < n; i++) {
            probability[i] = (float) LogSpace.sigmoid(a0Host[i]);
            slopeHost[i] = (double) visibleBias[i] - a0Host[i];
        }
        // W, a, b, a0 and σ(a0) in one float buffer: W (n×h), then four vectors
        float[] packed = new float[n * h + 3 * n + h];
        System.arraycopy(model.weights(), 0, packed, 0, n * h);
        System.arraycopy(visibleBias, 0, packed, n * h, n);
        System.arraycopy(model.hiddenBias(), 0, packed, n * h + n, h);
        System.arraycopy(a0Host, 0, packed, n * h + n + h, n);
        System.arraycopy(probability, 0, packed, n * h + 2 * n + h, n);
        this.parameters = new CudaMatrix(backend, 1, packed.length);
        backend.upload(packed, 1, parameters);
        long base = parameters.address();
        this.w = base;
        this.a = base + 4L * n * h;
        this.b = a + 4L * n;
        this.a0 = b + 4L * h;
        this.baseProbability = a0 + 4L * n;
        CudaVector slopeVector = new CudaVector(backend, n);
        backend.upload(slopeHost, slopeVector);
        this.slope = slopeVector.address();
        this.coefficient = new CudaVector(backend, n);
        this.doubles = new CudaVector[] {slopeVector, coefficient};
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

    private boolean blas() {
        return device.gemmPath() == CudaDevice.GemmPath.BLAS;
    }

    /** Scratch for {@code rows} particles. */
    private void ensureScratch(int rows) {
        if (u == null || u.rows() < rows) {
            if (u != null) {
                u.close();
                hidden.close();
                v.close();
            }
            u = new CudaMatrix(backend, rows, h);
            hidden = new CudaMatrix(backend, rows, h);
            v = new CudaMatrix(backend, rows, n);
        }
    }

    /** U (rows × H) = X (rows × k) · W[0, k) (+ U when accumulate). */
    private void productXW(long x, int rows, int k, long out, boolean accumulate) {
        if (blas()) {
            device.sgemm(false, false, h, rows, k, 1f, w, h, x, n, accumulate ? 1f : 0f, out, h);
        } else {
            gibbs.gemm(rows, h, k, x, n, w, h, false, accumulate ? 1f : 0f, out, h);
        }
    }

    /** H ~ σ(β (XW + b)) for rows of x; {@code betas} per row, or 0 for {@code beta} everywhere. */
    private void hiddenFromStates(long x, int rows, float beta, long betas, long seed, int step, long first) {
        if (blas()) {
            productXW(x, rows, n, u.address(), false);
            gibbs.sampleHidden(u.address(), h, rows, b, beta, betas, hidden.address(), seed, step, first);
        } else {
            gibbs.gemmBernoulli(rows, h, n, x, n, w, h, false, b, 0, beta, betas, hidden.address(), h, seed,
                    step, StreamTag.HIDDEN, first);
        }
    }

    /** x[0, active) ~ σ((1-β) a0 + β (a + HWᵀ)) for rows of x; {@code betas} per row, or 0. */
    private void visibleFromHidden(long x, int rows, int active, float beta, long betas, long seed, int step, long first) {
        if (active == 0) {
            return;
        }
        if (blas()) {
            device.sgemm(true, false, active, rows, h, 1f, w, h, hidden.address(), h, 0f, v.address(), n);
            gibbs.sampleVisible(v.address(), n, active, rows, a, a0, beta, betas, x, seed, step, first);
        } else {
            gibbs.gemmBernoulli(rows, active, h, hidden.address(), h, w, h, true, a, a0, beta, betas, x, n,
                    seed, step, StreamTag.VISIBLE, first);
        }
    }

    @Override
    public void sampleBase(ParticleMatrix x, int count, long seed, int step, int firstChain) {
        CudaMatrix xm = states(x);
        if (count > 0) {
            gibbs.sampleBase(xm.address(), count, n, baseProbability, seed, step, firstChain);
        }
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

    private void annealStep(ParticleMatrix x, int count, double from, double to, ParticleVector logW, boolean transition,
                            long seed, int step, int firstChain) {
        CudaMatrix xm = states(x);
        CudaVector lw = backend.own(logW);
        if (count == 0) {
            return;
        }
        ensureScratch(count);
        productXW(xm.address(), count, n, u.address(), false);
        weights.anneal(u.address(), xm.address(), n, h, count, b, slope, from, to, lw.address(), transition,
                hidden.address(), seed, step, firstChain);
        if (transition) {
            visibleFromHidden(xm.address(), count, n, (float) to, 0, seed, step, firstChain);
        }
    }

    @Override
    public void transition(ParticleMatrix x, int count, Betas betas, int sweeps, long seed, int step, int firstChain) {
        CudaMatrix xm = states(x);
        if (count == 0) {
            return;
        }
        float beta = betas instanceof Betas.Uniform uniform ? (float) uniform.beta() : 0f;
        long perRow = betas instanceof Betas.PerParticle p ? backend.own(p.betas()).address() : 0;
        ensureScratch(count);
        for (int sweep = 0; sweep < sweeps; sweep++) {
            hiddenFromStates(xm.address(), count, beta, perRow, seed, step + sweep, firstChain);
            visibleFromHidden(xm.address(), count, n, beta, perRow, seed, step + sweep, firstChain);
        }
    }

    @Override
    public void levels(ParticleMatrix x, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                       ParticleVector slope) {
        CudaMatrix xm = states(x);
        CudaVector ladder = backend.own(levelBetas);
        CudaVector f = backend.own(logF);
        CudaVector d = backend.own(slope);
        if (count == 0) {
            return;
        }
        ensureScratch(count);
        productXW(xm.address(), count, n, u.address(), false);
        weights.levels(u.address(), xm.address(), n, h, count, a, a0, b, ladder.address(), levels, f.address(),
                d.address());
    }

    @Override
    public void logDensity(ParticleMatrix x, int count, double beta, ParticleVector out) {
        CudaMatrix xm = states(x);
        CudaVector o = backend.own(out);
        if (count == 0) {
            return;
        }
        ensureScratch(count);
        double[] c = new double[n];
        float[] a0Host = baseRate.logOdds();
        for (int i = 0; i < n; i++) {
            c[i] = (1.0 - beta) * a0Host[i] + beta * visibleBias[i];
        }
        backend.upload(c, coefficient);
        productXW(xm.address(), count, n, u.address(), false);
        weights.logDensity(u.address(), xm.address(), n, h, count, b, coefficient.address(), beta, o.address());
    }

    /** {@code aᵀx + Σ_j softplus(b_j + xᵀW_:j)}: units not yet entered are 0, so this is {@code log f_n}. */
    @Override
    public void logDensity(ParticleState state, int count, ParticleVector out) {
        logDensity(state.variables(), count, 1.0, out);
    }

    @Override
    public void reset(ParticleState state, int first, int count) {
        CudaMatrix xm = states(state.variables());
        CudaMatrix gm = states(state.matrix(1));
        if (count > 0) {
            device.zero(xm.row(first), 4L * count * n);
            backend.particleKernels.broadcastRows(gm.row(first), h, count, b);
        }
    }

    @Override
    public void refresh(ParticleState state, int first, int count) {
        CudaMatrix xm = states(state.variables());
        CudaMatrix gm = states(state.matrix(1));
        if (count > 0) {
            refresh(xm, gm, first, count, n);
        }
    }

    /** g = b + x[0, k) W[0, k) for rows [first, first + count); units from k on are zero. */
    private void refresh(CudaMatrix xm, CudaMatrix gm, int first, int count, int k) {
        backend.particleKernels.broadcastRows(gm.row(first), h, count, b);
        if (k > 0) {
            productXW(xm.row(first), count, k, gm.row(first), true);
        }
    }

    @Override
    public void move(ParticleState state, int active, int first, int count, int sweeps, long seed, int step) {
        CudaMatrix xm = states(state.variables());
        CudaMatrix gm = states(state.matrix(1));
        if (count == 0 || active == 0) {
            return;
        }
        ensureScratch(count);
        for (int sweep = 0; sweep < sweeps; sweep++) {
            gibbs.sampleHidden(gm.row(first), h, count, 0, 1f, 0, hidden.address(), seed, step + sweep, first);
            visibleFromHidden(xm.row(first), count, active, 1f, 0, seed, step + sweep, first);
            refresh(xm, gm, first, count, active);
        }
    }

    @Override
    public void smooth(ParticleState state, int unit, int first, int count, ParticleVector logW) {
        CudaMatrix gm = states(state.matrix(1));
        CudaVector lw = backend.own(logW);
        if (count > 0) {
            weights.smooth(gm.row(first), h, count, w + 4L * unit * h, visibleBias[unit], lw.at(first));
        }
    }

    @Override
    public void augment(ParticleState state, int unit, int first, int count, long seed, int step) {
        CudaMatrix xm = states(state.variables());
        CudaMatrix gm = states(state.matrix(1));
        if (count > 0) {
            weights.augment(xm.row(first), gm.row(first), n, h, count, unit, w + 4L * unit * h,
                    visibleBias[unit], seed, step, first);
        }
    }

    private CudaMatrix states(ParticleMatrix m) {
        if (closed) {
            throw new IllegalStateException("RBM kernel is closed");
        }
        return backend.own(m);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        parameters.close();
        for (CudaVector d : doubles) {
            d.close();
        }
        if (u != null) {
            u.close();
            hidden.close();
            v.close();
        }
    }
}
