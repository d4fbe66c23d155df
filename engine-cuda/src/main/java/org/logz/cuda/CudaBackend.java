package org.logz.cuda;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.backend.Splitting;
import org.logz.backend.Tempering;
import org.logz.backend.TemperingMoves;
import org.logz.backend.WeightSummary;
import org.logz.backend.WeightedMoments;
import org.logz.kernel.KernelProfiling;
import org.logz.kernel.ProductTiming;
import org.logz.memory.Footprint;
import org.logz.memory.InsufficientMemoryException;
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
    final TemperingKernels temperingKernels;
    /** The model kernels' launchers by class, built on first use ({@link #launcher}). */
    private final Map<Class<?>, Object> launchers = new ConcurrentHashMap<>();
    private final Set<CudaBuffer> live = Collections.newSetFromMap(new IdentityHashMap<>());
    private final CudaVector summary;
    private final CudaIndexVector flag;
    private Workspace workspace;

    CudaBackend(String name, CudaDevice device) {
        this.name = name;
        this.device = device;
        this.particleKernels = new ParticleKernels(device);
        this.reduceKernels = new ReduceKernels(device);
        this.resampleKernels = new ResampleKernels(device);
        this.temperingKernels = new TemperingKernels(device);
        this.summary = new CudaVector(this, 4);
        this.flag = new CudaIndexVector(this, 1);
    }

    CudaDevice device() {
        return device;
    }

    /**
     * The launcher of a model's .cu on this backend's device, made by {@code create} on first use and shared by every
     * kernel the backend serves: model kernels fetch their own launchers here, so that the backend names no model
     * and a new model's kernel edits no existing file.
     */
    <L> L launcher(Class<L> type, Function<CudaDevice, L> create) {
        return type.cast(launchers.computeIfAbsent(type, t -> create.apply(device)));
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
        if (!isClosed()) {
            device.free(address);
        }
    }

    @Override
    protected boolean owns(Object handle) {
        return handle instanceof CudaBuffer b && b.owner() == this;
    }

    @Override
    protected ParticleMatrix newMatrix(int rows, int cols) {
        return new CudaMatrix(this, rows, cols);
    }

    @Override
    protected ParticleVector newVector(int length) {
        return new CudaVector(this, length);
    }

    @Override
    protected IndexVector newIndices(int length) {
        return new CudaIndexVector(this, length);
    }

    @Override
    protected void doUpload(float[] rowMajor, int rows, ParticleMatrix dst) {
        CudaMatrix m = own(dst);
        device.put(m.address(), rowMajor, 0, rows * m.cols());
    }

    @Override
    protected void doUpload(double[] values, ParticleVector dst) {
        device.put(own(dst).address(), values, 0, values.length);
    }

    @Override
    protected void doUpload(int[] values, IndexVector dst) {
        CudaIndexVector d = own(dst);
        device.put(d.address(), values, 0, values.length);
        int max = -1;
        int min = 0;
        for (int v : values) {
            max = Math.max(max, v);
            min = Math.min(min, v);
        }
        d.wrote(0, values.length, min < 0 ? CudaIndexVector.UNKNOWN : max + 1L);
    }

    @Override
    protected float[] doDownload(ParticleMatrix src, int rows) {
        CudaMatrix m = own(src);
        float[] out = new float[rows * m.cols()];
        device.get(m.address(), out, 0, out.length);
        return out;
    }

    @Override
    protected double[] doDownload(ParticleVector src, int count) {
        double[] out = new double[count];
        device.get(own(src).address(), out, 0, count);
        return out;
    }

    @Override
    protected int[] doDownload(IndexVector src, int count) {
        int[] out = new int[count];
        device.get(own(src).address(), out, 0, count);
        return out;
    }

    @Override
    protected void doFill(ParticleVector v, int first, int count, double value) {
        particleKernels.fill(own(v).at(first), count, value);
    }

    @Override
    protected void doSequence(IndexVector v, int first, int count, int start) {
        particleKernels.sequence(own(v).at(first), count, start);
        own(v).wrote(first, count, start < 0 ? CudaIndexVector.UNKNOWN : (long) start + count);
    }

    @Override
    protected void doCopyRows(ParticleMatrix src, int srcRow, ParticleMatrix dst, int dstRow, int count) {
        CudaMatrix s = own(src);
        device.copy(own(dst).row(dstRow), s.row(srcRow), 4L * count * s.cols());
    }

    @Override
    protected void doCopy(ParticleVector src, int srcOffset, ParticleVector dst, int dstOffset, int count) {
        device.copy(own(dst).at(dstOffset), own(src).at(srcOffset), 8L * count);
    }

    /**
     * Known from the vector's bound when the backend wrote it (no device work); otherwise checked on
     * the device: a memset, a kernel and one int read back.
     */
    @Override
    protected boolean indicesWithin(IndexVector index, int count, int bound) {
        int known = own(index).bound();
        if (known != CudaIndexVector.UNKNOWN && known <= bound) {
            return true;
        }
        device.zero(flag.address(), 4);
        particleKernels.checkIndices(own(index).address(), count, bound, flag.address());
        int[] out = new int[1];
        device.get(flag.address(), out, 0, 1);
        countTransfer(4);
        return out[0] == 0;
    }

    @Override
    protected void doGatherRows(ParticleMatrix src, IndexVector index, int count, ParticleMatrix dst, int dstRow) {
        CudaMatrix s = own(src);
        particleKernels.gatherRows(s.address(), s.cols(), own(index).address(), count, own(dst).row(dstRow));
    }

    @Override
    protected void doGather(ParticleVector src, IndexVector index, int count, ParticleVector dst, int dstOffset) {
        particleKernels.gatherDoubles(own(src).address(), own(index).address(), count, own(dst).at(dstOffset));
    }

    @Override
    protected void doGather(IndexVector src, IndexVector index, int count, IndexVector dst, int dstOffset) {
        particleKernels.gatherInts(own(src).address(), own(index).address(), count, own(dst).at(dstOffset));
        own(dst).wrote(dstOffset, count, own(src).bound());
    }

    @Override
    protected void doZeroColumns(ParticleMatrix m, int first, int count, int fromColumn) {
        CudaMatrix cm = own(m);
        particleKernels.zeroColumns(cm.row(first), cm.cols(), count, fromColumn);
    }

    @Override
    protected void doAxpy(double a, ParticleVector x, ParticleVector y, int first, int count) {
        particleKernels.axpy(a, own(x).at(first), own(y).at(first), count);
    }

    @Override
    protected void doScale(ParticleVector v, int first, int count, double s) {
        particleKernels.scale(own(v).at(first), count, s);
    }

    @Override
    protected WeightSummary doSummarize(ParticleVector logW, int first, int count) {
        long lw = own(logW).at(first);
        return summary(scalars(summary.address(), out -> reduceKernels.weightSummary(lw, count, out)), count);
    }

    /** One launch: no scratch vectors (adaptive tempering asks for many trial summaries per step). */
    @Override
    protected WeightSummary doSummarize(ParticleVector logW, ParticleVector delta, double s, int first, int count) {
        long lw = own(logW).at(first);
        long d = own(delta).at(first);
        return summary(scalars(summary.address(), out -> reduceKernels.trialSummary(lw, d, s, count, out)), count);
    }

    /** A summary from the reduction's max, sums and count of bad entries. */
    private static WeightSummary summary(double[] s, int count) {
        if (s[3] > 0) {
            return new WeightSummary(count, Double.NaN, Double.NaN);
        }
        if (s[0] == Double.NEGATIVE_INFINITY) {
            return new WeightSummary(count, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY);
        }
        return new WeightSummary(count, s[0] + Math.log(s[1]), 2 * s[0] + Math.log(s[2]));
    }

    @Override
    protected WeightedMoments doMoments(ParticleVector logW, ParticleVector values, int offset, int stride, int count) {
        long lw = own(logW).address();
        long v = own(values).address();
        double[] s = scalars(summary.address(), out -> reduceKernels.weightedMoments(lw, v, offset, stride, count, out));
        if (s[2] > 0 || s[3] == Double.NEGATIVE_INFINITY) {
            return new WeightedMoments(Double.NaN, Double.NaN);
        }
        return new WeightedMoments(s[0], s[1]);
    }

    /** Runs a one-block reduction that writes four scalars at {@code out} and reads them back (32 bytes). */
    private double[] scalars(long out, java.util.function.LongConsumer reduction) {
        reduction.accept(out);
        double[] s = new double[4];
        device.get(out, s, 0, 4);
        countTransfer(32);
        return s;
    }

    @Override
    protected void doResample(ResamplingScheme scheme, ParticleVector logW, int count, int offspring, long seed, int step,
                              IndexVector out) {
        CudaIndexVector o = own(out);
        Workspace ws = weights(own(logW), count);
        switch (scheme) {
            case MULTINOMIAL -> resampleKernels.multinomial(ws.cdf, ws.e, count, ws.total, offspring, seed, step,
                    o.address());
            case SYSTEMATIC -> resampleKernels.systematic(ws.cdf, ws.e, count, ws.total, offspring, seed, step,
                    o.address());
            case RESIDUAL -> residual(ws, count, offspring, seed, step, o);
        }
        o.wrote(0, offspring, count);
    }

    /** Validates the log weights and leaves e = exp(lw - max), its chunked cdf and total in the workspace. */
    private Workspace weights(CudaVector logW, int count) {
        Workspace ws = workspace(count);
        double[] s = scalars(ws.summary, out -> reduceKernels.weightSummary(logW.address(), count, out));
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
        if (copies > 0) {
            resampleKernels.scatterCopies(ws.counts, ws.offsets, count, copies, out.address());
        }
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
    protected void doRandomIndices(int bound, int count, long seed, int step, IndexVector out) {
        particleKernels.randomIndices(own(out).address(), count, bound, seed, step);
        own(out).wrote(0, count, bound);
    }

    /**
     * Tempering moves and ARM splitting run as kernels of tempering.cu and resample.cu; product timing on the GEMM path
     * the sweeps use; kernel profiles on the emulator in profile mode.
     */
    @Override
    public <C> Optional<C> capability(Class<C> type) {
        Object c = type == TemperingMoves.class ? (TemperingMoves) this::temperOnDevice
                : type == Splitting.class ? (Splitting) this::splitOnDevice
                : type == ProductTiming.class ? new CudaProductTiming(this)
                : type == KernelProfiling.class && device instanceof EmulatedDevice && EmulatorProfile.active()
                        ? new EmulatorProfile() : null;
        return Optional.ofNullable(type.cast(c));
    }

    private int splitOnDevice(ParticleVector logW, int count, double scale, ParticleVector carried, IndexVector indices,
                              ParticleVector carriedOut) {
        Workspace ws = weights(own(logW), count);
        long copies = floorCopies(ws, count, scale, 1);
        if (copies > 0) {
            resampleKernels.splitScatter(ws.counts, ws.offsets, own(carried).address(), count, copies,
                    own(indices).address(), own(carriedOut).address());
        }
        own(indices).wrote(0, (int) Math.min(copies, Integer.MAX_VALUE), count);
        return (int) copies;
    }

    private void temperOnDevice(Tempering t, int count, int levels, long seed, int step) {
        temperingKernels.draw(own(t.logF()).address(), own(t.logLevelWeight()).address(), count, levels,
                own(t.levelBetas()).address(), t.firstChain(), seed, step, own(t.probabilities()).address(),
                own(t.nextLevel()).address(), own(t.betas()).address());
        temperingKernels.accumulate(own(t.probabilities()).address(), own(t.slope()).address(), own(t.level()).address(),
                count, levels, t.groups(), own(t.statistics()).address());
        own(t.nextLevel()).wrote(0, count, levels);
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

    @Override
    protected void release() {
        for (CudaBuffer b : new ArrayList<>(live)) {
            b.close();
        }
        device.close();
    }

    /** The device matrix behind a checked handle. */
    CudaMatrix own(ParticleMatrix m) {
        return (CudaMatrix) own((Object) m);
    }

    CudaVector own(ParticleVector v) {
        return (CudaVector) own((Object) v);
    }

    CudaIndexVector own(IndexVector v) {
        return (CudaIndexVector) own((Object) v);
    }
}
