package org.logz.cuda;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import org.logz.backend.GaussianToyOps;
import org.logz.backend.IndexVector;
import org.logz.backend.IsingOps;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.backend.RbmOps;
import org.logz.backend.Tempering;
import org.logz.backend.WeightSummary;
import org.logz.memory.Footprint;
import org.logz.memory.InsufficientMemoryException;
import org.logz.model.BaseRate;
import org.logz.model.GaussianToy;
import org.logz.model.Ising;
import org.logz.model.Rbm;
import org.logz.resample.Resampler;
import org.logz.resample.Resampling;
import org.logz.resample.ResamplingScheme;

/**
 * The CUDA backend: particles resident in device memory, every batch operation a kernel of
 * kernels-cu, only scalars and short vectors crossing to the host (each counted in
 * {@link #transferredBytes()}). Runs on a GPU ({@code cuda}) or in the host emulation
 * ({@code cuda-emulated}). Every buffer it hands out is freed when closed, and whatever is still
 * open when the backend closes is freed then.
 */
public final class CudaBackend extends ParticleBackend {
    private final String name;
    private final CudaDevice device;
    final ParticleKernels particleKernels;
    final ReduceKernels reduceKernels;
    final ResampleKernels resampleKernels;
    final GibbsKernels gibbsKernels;
    final WeightKernels weightKernels;
    final IsingKernels isingKernels;
    final GaussianToyKernels gaussianToyKernels;
    final TemperingKernels temperingKernels;
    private final Set<CudaBuffer> live = Collections.newSetFromMap(new IdentityHashMap<>());
    private final CudaVector summary;
    private final CudaIndexVector flag;
    private Workspace workspace;
    private boolean closed;

    CudaBackend(String name, CudaDevice device) {
        this.name = name;
        this.device = device;
        this.particleKernels = new ParticleKernels(device);
        this.reduceKernels = new ReduceKernels(device);
        this.resampleKernels = new ResampleKernels(device);
        this.gibbsKernels = new GibbsKernels(device);
        this.weightKernels = new WeightKernels(device);
        this.isingKernels = new IsingKernels(device);
        this.gaussianToyKernels = new GaussianToyKernels(device);
        this.temperingKernels = new TemperingKernels(device);
        this.summary = new CudaVector(this, 4);
        this.flag = new CudaIndexVector(this, 1);
    }

    CudaDevice device() {
        return device;
    }

    @Override
    public String name() {
        return name;
    }

    /** Matrices and vectors both live in device memory. */
    @Override
    protected void checkDeviceMemory(Footprint footprint, String what) {
        long free = device.freeBytes();
        if (footprint.deviceBytes() > free) {
            throw new InsufficientMemoryException(what, footprint.deviceBytes(), free, "the device",
                    "use fewer chains or particles");
        }
    }

    @Override
    public String description() {
        return name + " (" + device.description() + ")";
    }

    long allocateZeroed(CudaBuffer buffer, long bytes) {
        checkOpen();
        long address = device.allocate(bytes);
        device.zero(address, bytes);
        live.add(buffer);
        return address;
    }

    void release(CudaBuffer buffer, long address) {
        live.remove(buffer);
        if (!closed) {
            device.free(address);
        }
    }

    @Override
    public ParticleMatrix matrix(int rows, int cols) {
        return new CudaMatrix(this, rows, cols);
    }

    @Override
    public ParticleVector vector(int length) {
        return new CudaVector(this, length);
    }

    @Override
    public IndexVector indices(int length) {
        return new CudaIndexVector(this, length);
    }

    @Override
    public void upload(float[] rowMajor, int rows, ParticleMatrix dst) {
        CudaMatrix m = own(dst);
        m.checkRows(0, rows);
        if (rowMajor.length < (long) rows * m.cols()) {
            throw new IllegalArgumentException("upload of " + rows + " rows needs " + (long) rows * m.cols()
                    + " values, got " + rowMajor.length);
        }
        device.put(m.address(), rowMajor, 0, rows * m.cols());
        countTransfer(4L * rows * m.cols());
    }

    @Override
    public void upload(double[] values, ParticleVector dst) {
        CudaVector v = own(dst);
        v.checkRange(0, values.length);
        device.put(v.address(), values, 0, values.length);
        countTransfer(8L * values.length);
    }

    @Override
    public void upload(int[] values, IndexVector dst) {
        CudaIndexVector v = own(dst);
        v.checkRange(0, values.length);
        device.put(v.address(), values, 0, values.length);
        countTransfer(4L * values.length);
    }

    @Override
    public float[] download(ParticleMatrix src, int rows) {
        CudaMatrix m = own(src);
        m.checkRows(0, rows);
        float[] out = new float[rows * m.cols()];
        device.get(m.address(), out, 0, out.length);
        countTransfer(4L * out.length);
        return out;
    }

    @Override
    public double[] download(ParticleVector src, int count) {
        CudaVector v = own(src);
        v.checkRange(0, count);
        double[] out = new double[count];
        device.get(v.address(), out, 0, count);
        countTransfer(8L * count);
        return out;
    }

    @Override
    public int[] download(IndexVector src, int count) {
        CudaIndexVector v = own(src);
        v.checkRange(0, count);
        int[] out = new int[count];
        device.get(v.address(), out, 0, count);
        countTransfer(4L * count);
        return out;
    }

    @Override
    public void fill(ParticleVector v, int first, int count, double value) {
        CudaVector cv = own(v);
        cv.checkRange(first, count);
        if (count > 0) {
            particleKernels.fill(cv.at(first), count, value);
        }
    }

    @Override
    public void sequence(IndexVector v, int first, int count, int start) {
        CudaIndexVector iv = own(v);
        iv.checkRange(first, count);
        if (count > 0) {
            particleKernels.sequence(iv.at(first), count, start);
        }
    }

    @Override
    public void copyRows(ParticleMatrix src, int srcRow, ParticleMatrix dst, int dstRow, int count) {
        CudaMatrix s = own(src);
        CudaMatrix d = own(dst);
        sameColumns(s, d);
        s.checkRows(srcRow, count);
        d.checkRows(dstRow, count);
        if (s == d && srcRow < dstRow + count && dstRow < srcRow + count && count > 0) {
            throw new IllegalArgumentException("copyRows: overlapping ranges in the same matrix");
        }
        if (count > 0) {
            device.copy(d.row(dstRow), s.row(srcRow), 4L * count * s.cols());
        }
    }

    @Override
    public void copy(ParticleVector src, int srcOffset, ParticleVector dst, int dstOffset, int count) {
        CudaVector s = own(src);
        CudaVector d = own(dst);
        s.checkRange(srcOffset, count);
        d.checkRange(dstOffset, count);
        if (count > 0) {
            device.copy(d.at(dstOffset), s.at(srcOffset), 8L * count);
        }
    }

    @Override
    public void gatherRows(ParticleMatrix src, IndexVector index, int count, ParticleMatrix dst, int dstRow) {
        CudaMatrix s = own(src);
        CudaMatrix d = own(dst);
        if (s == d) {
            throw new IllegalArgumentException("gather: source and destination must differ");
        }
        sameColumns(s, d);
        d.checkRows(dstRow, count);
        CudaIndexVector idx = checkedIndices(index, count, s.rows());
        if (count > 0) {
            particleKernels.gatherRows(s.address(), s.cols(), idx.address(), count, d.row(dstRow));
        }
    }

    @Override
    public void gather(ParticleVector src, IndexVector index, int count, ParticleVector dst, int dstOffset) {
        CudaVector s = own(src);
        CudaVector d = own(dst);
        if (s == d) {
            throw new IllegalArgumentException("gather: source and destination must differ");
        }
        d.checkRange(dstOffset, count);
        CudaIndexVector idx = checkedIndices(index, count, s.length());
        if (count > 0) {
            particleKernels.gatherDoubles(s.address(), idx.address(), count, d.at(dstOffset));
        }
    }

    @Override
    public void gather(IndexVector src, IndexVector index, int count, IndexVector dst, int dstOffset) {
        CudaIndexVector s = own(src);
        CudaIndexVector d = own(dst);
        if (s == d) {
            throw new IllegalArgumentException("gather: source and destination must differ");
        }
        d.checkRange(dstOffset, count);
        CudaIndexVector idx = checkedIndices(index, count, s.length());
        if (count > 0) {
            particleKernels.gatherInts(s.address(), idx.address(), count, d.at(dstOffset));
        }
    }

    /** Indices in range, checked on the device (one int read back). */
    private CudaIndexVector checkedIndices(IndexVector index, int count, int bound) {
        CudaIndexVector idx = own(index);
        idx.checkRange(0, count);
        if (count > 0) {
            device.zero(flag.address(), 4);
            particleKernels.checkIndices(idx.address(), count, bound, flag.address());
            int[] out = new int[1];
            device.get(flag.address(), out, 0, 1);
            countTransfer(4);
            if (out[0] != 0) {
                throw new IllegalArgumentException("gather index outside [0, " + bound + ")");
            }
        }
        return idx;
    }

    @Override
    public void zeroColumns(ParticleMatrix m, int first, int count, int fromColumn) {
        CudaMatrix cm = own(m);
        cm.checkRows(first, count);
        if (fromColumn < 0 || fromColumn > cm.cols()) {
            throw new IllegalArgumentException("column " + fromColumn + " outside a matrix of " + cm.cols() + " columns");
        }
        if (count > 0 && fromColumn < cm.cols()) {
            particleKernels.zeroColumns(cm.row(first), cm.cols(), count, fromColumn);
        }
    }

    @Override
    public WeightSummary summarize(ParticleVector logW, int first, int count) {
        CudaVector v = own(logW);
        v.checkRange(first, count);
        if (count == 0) {
            throw new IllegalArgumentException("cannot summarize zero weights");
        }
        double[] s = reduce(v.at(first), count, summary.address());
        if (s[3] > 0) {
            return new WeightSummary(count, Double.NaN, Double.NaN);
        }
        if (s[0] == Double.NEGATIVE_INFINITY) {
            return new WeightSummary(count, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY);
        }
        return new WeightSummary(count, s[0] + Math.log(s[1]), 2 * s[0] + Math.log(s[2]));
    }

    /** logz_weight_summary into {@code out}, read back (32 bytes). */
    private double[] reduce(long lw, int count, long out) {
        reduceKernels.weightSummary(lw, count, out);
        double[] s = new double[4];
        device.get(out, s, 0, 4);
        countTransfer(32);
        return s;
    }

    @Override
    public Resampler resampler(ResamplingScheme scheme) {
        return (logW, count, offspring, seed, step, out) -> resample(scheme, own(logW), count, offspring, seed, step, own(out));
    }

    private void resample(ResamplingScheme scheme, CudaVector logW, int count, int offspring, long seed, int step,
                          CudaIndexVector out) {
        if (offspring < 1 || count < 1) {
            throw new IllegalArgumentException("resampling needs at least one particle and one offspring, got " + count
                    + " and " + offspring);
        }
        logW.checkRange(0, count);
        out.checkRange(0, offspring);
        Workspace ws = weights(logW, count);
        switch (scheme) {
            case MULTINOMIAL -> resampleKernels.multinomial(ws.cdf, ws.e, count, ws.total, offspring, seed, step,
                    out.address());
            case SYSTEMATIC -> resampleKernels.systematic(ws.cdf, ws.e, count, ws.total, offspring, seed, step,
                    out.address());
            case RESIDUAL -> residual(ws, count, offspring, seed, step, out);
        }
    }

    /** Validates the log weights and leaves e = exp(lw - max), its chunked cdf and total in the workspace. */
    private Workspace weights(CudaVector logW, int count) {
        Workspace ws = workspace(count);
        double[] s = reduce(logW.address(), count, ws.summary);
        if (s[3] > 0) {
            throw new IllegalArgumentException((long) s[3] + " log weights are NaN or +∞; resampling needs finite weights");
        }
        if (s[0] == Double.NEGATIVE_INFINITY) {
            throw new IllegalArgumentException("all " + count + " weights are zero; nothing to resample from");
        }
        resampleKernels.weights(logW.address(), count, ws.summary, ws.e);
        resampleKernels.cumulative(ws.e, count, ws.cdf, ws.chunks, ws.total);
        return ws;
    }

    private void residual(Workspace ws, int count, int offspring, long seed, int step, CudaIndexVector out) {
        long copies = floorCopies(ws, count, offspring, 0);
        if (copies > offspring) {
            resampleKernels.trimCounts(ws.counts, count, copies - offspring);
            copies = scan(ws, count);
        }
        resampleKernels.scatterCopies(ws.counts, ws.offsets, count, out.address());
        long rest = offspring - copies;
        if (rest == 0) {
            return;
        }
        resampleKernels.residualWeights(ws.e, count, ws.total, offspring, ws.counts, ws.residual);
        resampleKernels.cumulative(ws.residual, count, ws.residualCdf, ws.chunks, ws.residualTotal);
        double[] total = new double[1];
        device.get(ws.residualTotal, total, 0, 1);
        countTransfer(8);
        long at = out.at((int) copies);
        if (total[0] > 0) {
            resampleKernels.multinomial(ws.residualCdf, ws.residual, count, ws.residualTotal, rest, seed, step, at);
        } else {
            // every share was an exact integer up to rounding: draw the rest from the weights themselves
            resampleKernels.multinomial(ws.cdf, ws.e, count, ws.total, rest, seed, step, at);
        }
    }

    /** counts = max(minimum, ⌊scale·w̃⌋) and their exclusive prefix sums; returns the sum (8 bytes read). */
    private long floorCopies(Workspace ws, int count, double scale, int minimum) {
        resampleKernels.floorCounts(ws.e, count, ws.total, scale, minimum, ws.counts);
        return scan(ws, count);
    }

    private long scan(Workspace ws, int count) {
        resampleKernels.scanCounts(ws.counts, count, ws.offsets, ws.chunks, ws.countTotal);
        long[] total = new long[1];
        device.get(ws.countTotal, total, 0, 1);
        countTransfer(8);
        return total[0];
    }

    @Override
    public int split(ParticleVector logW, int count, double scale, ParticleVector carried, IndexVector indices,
                     ParticleVector carriedOut) {
        CudaVector w = own(logW);
        CudaVector c = own(carried);
        CudaIndexVector idx = own(indices);
        CudaVector out = own(carriedOut);
        w.checkRange(0, count);
        c.checkRange(0, count);
        int capacity = Resampling.splitCapacity(count, scale);
        if (idx.length() < capacity || out.length() < capacity) {
            throw new IllegalArgumentException("split of " + count + " particles needs outputs of " + capacity + " entries");
        }
        Workspace ws = weights(w, count);
        long copies = floorCopies(ws, count, scale, 1);
        resampleKernels.splitScatter(ws.counts, ws.offsets, c.address(), count, idx.address(), out.address());
        return (int) copies;
    }

    @Override
    public void randomIndices(int bound, int count, long seed, int step, IndexVector out) {
        if (bound < 1) {
            throw new IllegalArgumentException("random indices need a positive bound, got " + bound);
        }
        CudaIndexVector o = own(out);
        o.checkRange(0, count);
        if (count > 0) {
            particleKernels.randomIndices(o.address(), count, bound, seed, step);
        }
    }

    @Override
    public void linearLevels(ParticleVector values, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                             ParticleVector slope) {
        CudaVector v = own(values);
        CudaVector ladder = own(levelBetas);
        CudaVector f = own(logF);
        CudaVector d = own(slope);
        v.checkRange(0, count);
        ladder.checkRange(0, levels);
        f.checkRange(0, count * levels);
        d.checkRange(0, count * levels);
        if (count > 0) {
            temperingKernels.linearLevels(v.address(), count, ladder.address(), levels, f.address(), d.address());
        }
    }

    @Override
    public void temper(Tempering t, int count, int levels, long seed, int step) {
        CudaVector logF = own(t.logF());
        CudaVector slope = own(t.slope());
        CudaVector weight = own(t.logLevelWeight());
        CudaVector ladder = own(t.levelBetas());
        CudaIndexVector level = own(t.level());
        CudaIndexVector next = own(t.nextLevel());
        CudaVector betas = own(t.betas());
        CudaVector q = own(t.probabilities());
        CudaVector statistics = own(t.statistics());
        logF.checkRange(0, count * levels);
        slope.checkRange(0, count * levels);
        q.checkRange(0, count * levels);
        weight.checkRange(0, levels);
        ladder.checkRange(0, levels);
        statistics.checkRange(0, 4 * levels * t.groups());
        level.checkRange(0, count);
        next.checkRange(0, count);
        betas.checkRange(0, count);
        if (count == 0) {
            return;
        }
        temperingKernels.draw(logF.address(), weight.address(), count, levels, ladder.address(), seed, step,
                q.address(), next.address(), betas.address());
        temperingKernels.accumulate(q.address(), slope.address(), level.address(), count, levels, t.groups(),
                statistics.address());
    }

    @Override
    public RbmOps bind(Rbm model, BaseRate baseRate) {
        checkOpen();
        return new CudaRbmOps(this, model, baseRate);
    }

    @Override
    public IsingOps bind(Ising model) {
        checkOpen();
        return new CudaIsingOps(this, model);
    }

    @Override
    public GaussianToyOps bind(GaussianToy model) {
        checkOpen();
        return new CudaGaussianToyOps(this, model);
    }

    /** Device scratch of the resampling kernels, grown to the largest particle count seen. */
    private static final class Workspace implements AutoCloseable {
        final int capacity;
        private final CudaBuffer[] buffers;
        final long e;
        final long cdf;
        final long residual;
        final long residualCdf;
        final long counts;
        final long offsets;
        final long chunks;
        final long summary;
        final long total;
        final long residualTotal;
        final long countTotal;

        Workspace(CudaBackend backend, int capacity) {
            this.capacity = capacity;
            int chunkCount = (capacity + Resampling.CHUNK - 1) / Resampling.CHUNK;
            CudaVector ev = new CudaVector(backend, capacity);
            CudaVector cdfv = new CudaVector(backend, capacity);
            CudaVector resv = new CudaVector(backend, capacity);
            CudaVector rescdfv = new CudaVector(backend, capacity);
            CudaIndexVector countsv = new CudaIndexVector(backend, capacity);
            CudaIndexVector offsetsv = new CudaIndexVector(backend, capacity);
            CudaVector chunksv = new CudaVector(backend, chunkCount);
            CudaVector scalars = new CudaVector(backend, 7);
            buffers = new CudaBuffer[] {ev, cdfv, resv, rescdfv, countsv, offsetsv, chunksv, scalars};
            e = ev.address();
            cdf = cdfv.address();
            residual = resv.address();
            residualCdf = rescdfv.address();
            counts = countsv.address();
            offsets = offsetsv.address();
            chunks = chunksv.address();
            summary = scalars.at(0);
            total = scalars.at(4);
            residualTotal = scalars.at(5);
            countTotal = scalars.at(6);
        }

        @Override
        public void close() {
            for (CudaBuffer b : buffers) {
                b.close();
            }
        }
    }

    private Workspace workspace(int count) {
        if (workspace == null || workspace.capacity < count) {
            if (workspace != null) {
                workspace.close();
            }
            workspace = new Workspace(this, Math.max(count, 1024));
        }
        return workspace;
    }

    @Override
    public void synchronize() {
        device.synchronize();
    }

    /**
     * Seconds that {@code sweeps} rounds of a Gibbs sweep's two products alone take on this device
     * for {@code rows} particles of an {@code n × h} RBM, on the same GEMM path the sweeps use: the
     * yardstick of the sweep benchmark.
     */
    public double productSeconds(int rows, int n, int h, int sweeps) {
        try (CudaMatrix x = new CudaMatrix(this, rows, n); CudaMatrix w = new CudaMatrix(this, n, h);
             CudaMatrix u = new CudaMatrix(this, rows, h); CudaMatrix v = new CudaMatrix(this, rows, n)) {
            device.synchronize();
            long start = System.nanoTime();
            for (int s = 0; s < sweeps; s++) {
                if (device.gemmPath() == CudaDevice.GemmPath.BLAS) {
                    device.sgemm(false, false, h, rows, n, 1f, w.address(), h, x.address(), n, 0f, u.address(), h);
                    device.sgemm(true, false, n, rows, h, 1f, w.address(), h, u.address(), h, 0f, v.address(), n);
                } else {
                    gibbsKernels.gemm(rows, h, n, x.address(), n, w.address(), h, false, 0f, u.address(), h);
                    gibbsKernels.gemm(rows, n, h, u.address(), h, w.address(), h, true, 0f, v.address(), n);
                }
            }
            device.synchronize();
            return (System.nanoTime() - start) * 1e-9;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        for (CudaBuffer b : new ArrayList<>(live)) {
            b.close();
        }
        closed = true;
        device.close();
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("backend is closed");
        }
    }

    private static void sameColumns(CudaMatrix a, CudaMatrix b) {
        if (a.cols() != b.cols()) {
            throw new IllegalArgumentException("matrices of " + a.cols() + " and " + b.cols() + " columns");
        }
    }

    CudaMatrix own(ParticleMatrix m) {
        if (!(m instanceof CudaMatrix cm) || cm.owner() != this) {
            throw new IllegalArgumentException("particle matrix belongs to another backend");
        }
        return cm;
    }

    CudaVector own(ParticleVector v) {
        if (!(v instanceof CudaVector cv) || cv.owner() != this) {
            throw new IllegalArgumentException("particle vector belongs to another backend");
        }
        return cv;
    }

    CudaIndexVector own(IndexVector v) {
        if (!(v instanceof CudaIndexVector cv) || cv.owner() != this) {
            throw new IllegalArgumentException("index vector belongs to another backend");
        }
        return cv;
    }
}
