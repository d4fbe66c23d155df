package org.logz.cpu;

import org.logz.memory.HostMemory;
import org.logz.memory.InsufficientMemoryException;
import org.logz.model.Rbm;

/**
 * {@link RbmMath} through the native kernels ({@link CpuNative}) of one instruction set. A draw the kernels cannot
 * prove (its uniform within 2^-18 of the probability, about one in 10^6) comes back listed and is drawn here with
 * {@link RbmDraws}' exact expression, so the states are the Java path's to the bit.
 */
final class NativeRbmMath implements RbmMath {
    /** Room for listed draws per call; past it every draw of the call is redone in Java. */
    private static final int CAPACITY = 4096;

    private final int n;
    private final int h;
    private final float[] a;
    private final float[] b;
    private final float[] a0;
    private final Rbm model;
    /** The Java path, for a call whose listed draws overflow the list; made on first use. */
    private JavaRbmMath exact;
    private final ThreadLocal<int[]> ambiguous = ThreadLocal.withInitial(() -> new int[CAPACITY]);
    private long handle;

    NativeRbmMath(Rbm model, float[] a0, int isa) {
        this.n = model.visible();
        this.h = model.hidden();
        this.a = model.visibleBias();
        this.b = model.hiddenBias();
        this.a0 = a0;
        this.model = model;
        this.handle = CpuNative.create(isa, model.weights(), a, b, a0, n, h);
        if (handle == 0) {
            throw new InsufficientMemoryException("the native RBM kernel's packed weights", 8L * n * h,
                    HostMemory.machineAvailable(), "the machine", "use a smaller model");
        }
    }

    private synchronized JavaRbmMath exact() {
        if (exact == null) {
            exact = new JavaRbmMath(model, a0);
        }
        return exact;
    }

    private long rbm() {
        if (handle == 0) {
            throw new IllegalStateException("RBM kernel is closed");
        }
        return handle;
    }

    @Override
    public void productXw(Tile x, int from, int to, int active, Tile u) {
        CpuNative.productXw(rbm(), x.row(from), to - from, active, u.row(from));
    }

    @Override
    public void productHwt(Tile hid, int from, int to, int active, Tile v) {
        CpuNative.productHwt(rbm(), hid.row(from), to - from, active, v.row(from));
    }

    @Override
    public void sampleHidden(Tile field, boolean withBias, int from, int to, float[] beta, long seed, int particle0,
                             int step, int tag, Tile out) {
        int[] list = ambiguous.get();
        int count = CpuNative.sampleHidden(rbm(), field.row(from), to - from, withBias, beta, from, seed, particle0 + from,
                step, tag, out.row(from), list);
        if (count < 0) {
            exact().sampleHidden(field, withBias, from, to, beta, seed, particle0, step, tag, out);
            return;
        }
        for (int e = 0; e < count; e++) {
            int r = from + list[e] / h;
            int j = list[e] % h;
            float f = field.buffer.get(r * h + j);
            float z = beta[r] * (withBias ? f : f + b[j]);
            out.buffer.put(r * h + j, RbmDraws.bernoulli(RbmDraws.uniform(seed, particle0 + r, step, tag, j),
                    RbmDraws.logistic(z)));
        }
    }

    @Override
    public void sampleVisible(Tile v, int from, int to, int active, float[] beta, long seed, int particle0, int step,
                              int tag, Tile x) {
        int[] list = ambiguous.get();
        int count = CpuNative.sampleVisible(rbm(), v.row(from), to - from, active, beta, from, seed, particle0 + from,
                step, tag, x.row(from), list);
        if (count < 0) {
            exact().sampleVisible(v, from, to, active, beta, seed, particle0, step, tag, x);
            return;
        }
        for (int e = 0; e < count; e++) {
            int r = from + list[e] / n;
            int i = list[e] % n;
            float z = (1f - beta[r]) * a0[i] + beta[r] * (a[i] + v.buffer.get(r * n + i));
            x.buffer.put(r * n + i, RbmDraws.bernoulli(RbmDraws.uniform(seed, particle0 + r, step, tag, i),
                    RbmDraws.logistic(z)));
        }
    }

    @Override
    public void anneal(Tile u, Tile x, int from, int to, double fromBeta, double toBeta, boolean draw, long seed,
                       int particle0, int step, int tag, double[] logW, int offset, Tile out) {
        int[] list = ambiguous.get();
        int count = CpuNative.anneal(rbm(), u.row(from), x.row(from), to - from, fromBeta, toBeta, draw, seed,
                particle0 + from, step, tag, logW, offset + from, out.row(from), list);
        if (!draw) {
            return;
        }
        if (count < 0) {
            redrawAnneal(u, from, to, toBeta, seed, particle0, step, tag, out);
            return;
        }
        for (int e = 0; e < count; e++) {
            int r = from + list[e] / h;
            int j = list[e] % h;
            drawAnneal(u, r, j, toBeta, seed, particle0, step, tag, out);
        }
    }

    private void redrawAnneal(Tile u, int from, int to, double toBeta, long seed, int particle0, int step, int tag,
                              Tile out) {
        for (int r = from; r < to; r++) {
            for (int j = 0; j < h; j++) {
                drawAnneal(u, r, j, toBeta, seed, particle0, step, tag, out);
            }
        }
    }

    private void drawAnneal(Tile u, int r, int j, double toBeta, long seed, int particle0, int step, int tag, Tile out) {
        double zTo = toBeta * (double) (u.buffer.get(r * h + j) + b[j]);
        out.buffer.put(r * h + j, RbmDraws.bernoulli(RbmDraws.uniform(seed, particle0 + r, step, tag, j),
                RbmDraws.annealProbability(zTo)));
    }

    @Override
    public void levels(Tile u, Tile x, int from, int to, double[] betas, int levels, double[] logF, double[] slope,
                       int offset) {
        CpuNative.levels(rbm(), u.row(from), x.row(from), to - from, betas, levels, logF, slope, offset + from * levels);
    }

    @Override
    public String description() {
        return "native " + CpuNative.name(CpuNative.isa(rbm()));
    }

    @Override
    public void close() {
        if (handle != 0) {
            CpuNative.free(handle);
            handle = 0;
        }
    }
}
