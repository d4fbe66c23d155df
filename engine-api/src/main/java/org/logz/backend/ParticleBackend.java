package org.logz.backend;

import java.util.Optional;

import org.logz.memory.Footprint;
import org.logz.memory.HostMemory;
import org.logz.resample.Resampling;
import org.logz.resample.ResamplingScheme;

/**
 * The backend contract (DESIGN §2): owns device memory and runs whole-batch operations on it.
 * Estimators hold opaque handles ({@link ParticleMatrix}, {@link ParticleVector}, {@link IndexVector})
 * and exchange only scalars and short vectors with the host.
 *
 * <p>The generic core is written once here: every public operation is final, checks its arguments
 * (ranges, shapes, that each handle belongs to this backend), counts what crosses to the host, and
 * only then calls a protected hook, which may trust its arguments. Model kernels are not part of
 * the backend: they come from {@link org.logz.kernel.KernelProvider}s. Estimator-specific kernels
 * are optional capabilities ({@link TemperingMoves}, {@link Splitting}); without them the backend
 * runs the host reference on downloaded buffers. A backend is correct when the shared contract
 * tests pass on it.
 */
public abstract class ParticleBackend implements AutoCloseable {
    private long transferredBytes;
    private boolean closed;

    /**
     * Bytes moved between the host and the backend's memory so far: uploads, downloads and the
     * scalars that reductions return. Estimators report the difference over a run.
     */
    public final long transferredBytes() {
        return transferredBytes;
    }

    /** Backends call this for host-device transfers that their hooks make on their own. */
    protected final void countTransfer(long bytes) {
        transferredBytes += bytes;
    }

    /**
     * Refuses a run before it allocates when its footprint does not fit: the heap part against the JVM,
     * the matrices and vectors against what this backend can still allocate ({@link #checkDeviceMemory}).
     *
     * @throws org.logz.memory.InsufficientMemoryException naming what is needed and what there is
     */
    public final void require(Footprint footprint, String what) {
        HostMemory.requireHeap(footprint.heapBytes(), what);
        checkDeviceMemory(footprint, what);
    }

    /**
     * Refuses matrices of {@code rows} particles × {@code cols} values that this backend cannot lay out, before the
     * work that would come first (the cpu backend's tiles hold at most 2 GiB each); every shape fits by default.
     *
     * @throws org.logz.base.UserException naming {@code what} and the limit
     */
    public void requireShape(int rows, int cols, String what) {
    }

    /** Short name used on the command line ({@code cpu}, {@code cuda}, {@code cuda-emulated}). */
    public abstract String name();

    /** One line about the device and its configuration, for logs and result files. */
    public abstract String description();

    /** A zero-filled matrix of {@code rows} particles with {@code cols} values each. */
    public final ParticleMatrix matrix(int rows, int cols) {
        checkOpen();
        if (rows < 1 || cols < 1) {
            throw new IllegalArgumentException("a particle matrix needs positive dimensions, got " + rows + "×" + cols);
        }
        return newMatrix(rows, cols);
    }

    /** A zero-filled float64 vector. */
    public final ParticleVector vector(int length) {
        checkOpen();
        if (length < 1) {
            throw new IllegalArgumentException("a particle vector needs a positive length, got " + length);
        }
        return newVector(length);
    }

    /** A float64 vector holding {@code values} (a model's parameters), freed again when the upload fails. */
    public final ParticleVector vector(double[] values) {
        ParticleVector v = vector(values.length);
        try {
            upload(values, v);
        } catch (RuntimeException e) {
            v.close();
            throw e;
        }
        return v;
    }

    /** A zero-filled vector of int32 indices. */
    public final IndexVector indices(int length) {
        checkOpen();
        if (length < 1) {
            throw new IllegalArgumentException("an index vector needs a positive length, got " + length);
        }
        return newIndices(length);
    }

    /** Copies {@code rows} row-major particle states from the host into {@code dst}. Modifies {@code dst}. */
    public final void upload(float[] rowMajor, int rows, ParticleMatrix dst) {
        rows(dst, 0, rows);
        if (rowMajor.length < (long) rows * dst.cols()) {
            throw new IllegalArgumentException("upload of " + rows + " rows needs " + (long) rows * dst.cols()
                    + " values, got " + rowMajor.length);
        }
        doUpload(rowMajor, rows, dst);
        countTransfer(4L * rows * dst.cols());
    }

    /** Copies {@code values} into the first {@code values.length} entries of {@code dst}. Modifies {@code dst}. */
    public final void upload(double[] values, ParticleVector dst) {
        range(dst, 0, values.length);
        doUpload(values, dst);
        countTransfer(8L * values.length);
    }

    /** Copies {@code values} into the first {@code values.length} entries of {@code dst}. Modifies {@code dst}. */
    public final void upload(int[] values, IndexVector dst) {
        range(dst, 0, values.length);
        doUpload(values, dst);
        countTransfer(4L * values.length);
    }

    /** Copies the first {@code rows} particles to the host, row-major (diagnostics and tests). */
    public final float[] download(ParticleMatrix src, int rows) {
        rows(src, 0, rows);
        float[] out = doDownload(src, rows);
        countTransfer(4L * out.length);
        return out;
    }

    /** Copies the first {@code count} entries to the host. */
    public final double[] download(ParticleVector src, int count) {
        range(src, 0, count);
        double[] out = doDownload(src, count);
        countTransfer(8L * count);
        return out;
    }

    /** Copies the first {@code count} entries to the host. */
    public final int[] download(IndexVector src, int count) {
        range(src, 0, count);
        int[] out = doDownload(src, count);
        countTransfer(4L * count);
        return out;
    }

    /** Sets entries {@code [first, first + count)} of {@code v} to {@code value}. Modifies {@code v}. */
    public final void fill(ParticleVector v, int first, int count, double value) {
        range(v, first, count);
        if (count > 0) {
            doFill(v, first, count, value);
        }
    }

    /** Sets {@code v[first + k] = start + k} for k &lt; count. Modifies {@code v}. */
    public final void sequence(IndexVector v, int first, int count, int start) {
        range(v, first, count);
        if (count > 0) {
            doSequence(v, first, count, start);
        }
    }

    /**
     * Copies rows {@code [srcRow, srcRow + count)} of {@code src} to rows starting at {@code dstRow}
     * of {@code dst}, which may be the same matrix when the ranges do not overlap. Modifies {@code dst}.
     */
    public final void copyRows(ParticleMatrix src, int srcRow, ParticleMatrix dst, int dstRow, int count) {
        rows(src, srcRow, count);
        rows(dst, dstRow, count);
        sameColumns(src, dst);
        if (src == dst && srcRow < dstRow + count && dstRow < srcRow + count && count > 0) {
            throw new IllegalArgumentException("copyRows: overlapping ranges in the same matrix");
        }
        if (count > 0) {
            doCopyRows(src, srcRow, dst, dstRow, count);
        }
    }

    /** Copies {@code src[srcOffset, srcOffset + count)} to {@code dst} at {@code dstOffset}. Modifies {@code dst}. */
    public final void copy(ParticleVector src, int srcOffset, ParticleVector dst, int dstOffset, int count) {
        range(src, srcOffset, count);
        range(dst, dstOffset, count);
        if (src == dst && srcOffset < dstOffset + count && dstOffset < srcOffset + count && count > 0
                && srcOffset != dstOffset) {
            throw new IllegalArgumentException("copy: overlapping ranges in the same vector");
        }
        if (count > 0 && !(src == dst && srcOffset == dstOffset)) {
            doCopy(src, srcOffset, dst, dstOffset, count);
        }
    }

    /**
     * Row {@code dstRow + k} of {@code dst} becomes row {@code index[k]} of {@code src}, k &lt; count.
     * {@code src} and {@code dst} must be different matrices. Modifies {@code dst}.
     */
    public final void gatherRows(ParticleMatrix src, IndexVector index, int count, ParticleMatrix dst, int dstRow) {
        distinct(src, dst);
        sameColumns(own(src), own(dst));
        rows(dst, dstRow, count);
        indices(index, count, src.rows());
        if (count > 0) {
            doGatherRows(src, index, count, dst, dstRow);
        }
    }

    /** {@code dst[dstOffset + k] = src[index[k]]}, k &lt; count; src ≠ dst. Modifies {@code dst}. */
    public final void gather(ParticleVector src, IndexVector index, int count, ParticleVector dst, int dstOffset) {
        distinct(src, dst);
        range(dst, dstOffset, count);
        indices(index, count, own(src).length());
        if (count > 0) {
            doGather(src, index, count, dst, dstOffset);
        }
    }

    /** {@code dst[dstOffset + k] = src[index[k]]}, k &lt; count; src ≠ dst. Modifies {@code dst}. */
    public final void gather(IndexVector src, IndexVector index, int count, IndexVector dst, int dstOffset) {
        distinct(src, dst);
        range(dst, dstOffset, count);
        indices(index, count, own(src).length());
        if (count > 0) {
            doGather(src, index, count, dst, dstOffset);
        }
    }

    /** Sets columns {@code [fromColumn, cols)} of rows {@code [first, first + count)} to zero. Modifies {@code m}. */
    public final void zeroColumns(ParticleMatrix m, int first, int count, int fromColumn) {
        rows(m, first, count);
        if (fromColumn < 0 || fromColumn > m.cols()) {
            throw new IllegalArgumentException("column " + fromColumn + " outside a matrix of " + m.cols() + " columns");
        }
        if (count > 0 && fromColumn < m.cols()) {
            doZeroColumns(m, first, count, fromColumn);
        }
    }

    /** {@code y[first + k] += a·x[first + k]}, k &lt; count. Modifies {@code y}. */
    public final void axpy(double a, ParticleVector x, ParticleVector y, int first, int count) {
        range(x, first, count);
        range(y, first, count);
        finite(a, "axpy coefficient");
        if (count > 0) {
            doAxpy(a, x, y, first, count);
        }
    }

    /** {@code v[first + k] *= s}, k &lt; count. Modifies {@code v}. */
    public final void scale(ParticleVector v, int first, int count, double s) {
        range(v, first, count);
        finite(s, "scale factor");
        if (count > 0) {
            doScale(v, first, count, s);
        }
    }

    /**
     * LSE of {@code logW[first, first + count)} and of its doubles, in a fixed order that does not
     * depend on the number of threads. A NaN or +∞ weight makes the sums non-finite
     * ({@link WeightSummary#degenerate()}).
     */
    public final WeightSummary summarize(ParticleVector logW, int first, int count) {
        range(logW, first, count);
        nonEmpty(count);
        return doSummarize(logW, first, count);
    }

    /** LSE summary of {@code logW[0, count)}. */
    public final WeightSummary summarize(ParticleVector logW, int count) {
        return summarize(logW, 0, count);
    }

    /**
     * The summary of {@code logW + s·delta} over {@code [first, first + count)} without changing either:
     * what adaptive schedules ask of a trial step (the ESS had β moved by s). Modifies nothing.
     */
    public final WeightSummary summarize(ParticleVector logW, ParticleVector delta, double s, int first, int count) {
        range(logW, first, count);
        range(delta, first, count);
        nonEmpty(count);
        finite(s, "step");
        return doSummarize(logW, delta, s, first, count);
    }

    /**
     * The mean and variance of {@code values[offset + k·stride]}, k &lt; count, under the normalized weights
     * {@code ∝ exp(logW[k])}: column {@code offset} of a count × stride matrix such as the slopes of
     * {@link org.logz.kernel.TemperedKernel#levels}, or a whole vector with stride 1. NaN when the weights
     * are degenerate. Modifies nothing.
     */
    public final WeightedMoments moments(ParticleVector logW, ParticleVector values, int offset, int stride, int count) {
        range(logW, 0, count);
        nonEmpty(count);
        if (offset < 0 || stride < 1) {
            throw new IllegalArgumentException("moments need offset ≥ 0 and stride ≥ 1, got " + offset + " and " + stride);
        }
        range(values, offset, (int) Math.min(Integer.MAX_VALUE, (long) (count - 1) * stride + 1));
        return doMoments(logW, values, offset, stride, count);
    }

    /**
     * From the log weights of particles {@code [0, count)}, draws {@code offspring} ancestor indices
     * into {@code out[0, offspring)} by {@code scheme}, with the uniforms of {@link Resampling} at
     * {@code step}, so every backend picks the same ancestors. Modifies {@code out}.
     *
     * @throws IllegalArgumentException when a log weight is NaN or +∞, or every weight is zero
     */
    public final void resample(ResamplingScheme scheme, ParticleVector logW, int count, int offspring, long seed, int step,
                               IndexVector out) {
        if (offspring < 1 || count < 1) {
            throw new IllegalArgumentException("resampling needs at least one particle and one offspring, got " + count
                    + " and " + offspring);
        }
        range(logW, 0, count);
        range(out, 0, offspring);
        doResample(scheme, logW, count, offspring, seed, step, out);
    }

    /** {@link #resample} with the scheme fixed: the one signature every scheme shares. */
    public final Resampler resampler(ResamplingScheme scheme) {
        return (logW, count, offspring, seed, step, out) -> resample(scheme, logW, count, offspring, seed, step, out);
    }

    /**
     * {@code out[k] = ⌊u_k · bound⌋} for k &lt; count, {@code u_k} the 53-bit uniform of draw k in the
     * layout of {@link Resampling#uniform} under stream {@code RESEED}. Modifies {@code out}.
     */
    public final void randomIndices(int bound, int count, long seed, int step, IndexVector out) {
        if (bound < 1) {
            throw new IllegalArgumentException("random indices need a positive bound, got " + bound);
        }
        range(out, 0, count);
        if (count > 0) {
            doRandomIndices(bound, count, seed, step, out);
        }
    }

    /**
     * ARM-anticipate's split ({@link Resampling#split}): copies of particles {@code [0, count)},
     * {@code max(1, ⌊scale·w̃_r⌋)} of particle r with {@code w̃} from {@code logW}; their source
     * indices go to {@code indices} and their carried log weights {@code carried_r - log(copies_r)}
     * to {@code carriedOut}. Runs the backend's {@link Splitting} capability, else the host
     * reference on downloaded weights. Modifies {@code indices} and {@code carriedOut}.
     *
     * @return the number of copies (at most {@link Resampling#splitCapacity})
     */
    public final int split(ParticleVector logW, int count, double scale, ParticleVector carried, IndexVector indices,
                           ParticleVector carriedOut) {
        range(logW, 0, count);
        range(carried, 0, count);
        if (!(scale >= 0 && scale <= Integer.MAX_VALUE - (double) count)) {
            throw new IllegalArgumentException("split scale must lie in [0, " + (Integer.MAX_VALUE - count) + "], got " + scale);
        }
        int capacity = Resampling.splitCapacity(count, scale);
        if (own(indices).length() < capacity || own(carriedOut).length() < capacity) {
            throw new IllegalArgumentException("split of " + count + " particles needs outputs of " + capacity + " entries");
        }
        Optional<Splitting> native_ = capability(Splitting.class);
        if (native_.isPresent()) {
            return native_.get().split(logW, count, scale, carried, indices, carriedOut);
        }
        int[] idx = new int[capacity];
        double[] out = new double[capacity];
        int copies = Resampling.split(download(logW, count), count, scale, download(carried, count), idx, out);
        upload(java.util.Arrays.copyOf(idx, copies), indices);
        upload(java.util.Arrays.copyOf(out, copies), carriedOut);
        return copies;
    }

    /**
     * One temperature move of simulated tempering with Rao-Blackwellized statistics (Carlson et al.
     * 2016, Algorithm 1, eq. 9 and 21): for every chain r, {@code q_rk ∝ exp(logF_rk + logLevelWeight_k)}
     * (eq. 7; {@code logLevelWeight_k = log r_k - log Ẑ_k}), a new level drawn from {@code q_r·} with the
     * 53-bit uniform of Philox block {@code (0, firstChain + r, step, TEMPERATURE)}, and the accumulators of
     * {@link Tempering#statistics()} updated in a fixed order. Runs the backend's {@link TemperingMoves}
     * capability, else {@link TemperingSteps} on downloaded buffers. Modifies nextLevel, betas,
     * probabilities and statistics.
     */
    public final void temper(Tempering t, int count, int levels, long seed, int step) {
        long cells = (long) count * levels;
        if (levels < 1 || cells > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("tempering of " + count + " chains × " + levels + " levels");
        }
        range(t.logF(), 0, (int) cells);
        range(t.slope(), 0, (int) cells);
        range(t.probabilities(), 0, (int) cells);
        range(t.logLevelWeight(), 0, levels);
        range(t.levelBetas(), 0, levels);
        range(t.statistics(), 0, TemperingSteps.statisticsLength(count, levels, t.groups()));
        range(t.level(), 0, count);
        range(t.nextLevel(), 0, count);
        range(t.betas(), 0, count);
        if (count == 0) {
            return;
        }
        Optional<TemperingMoves> native_ = capability(TemperingMoves.class);
        if (native_.isPresent()) {
            native_.get().temper(t, count, levels, seed, step);
        } else {
            TemperingSteps.onHost(this, t, count, levels, seed, step);
        }
    }

    /**
     * An optional capability of this backend ({@link TemperingMoves}, {@link Splitting}, or one a
     * backend module defines), or empty. Its methods trust their arguments: callers reach the built-in
     * ones through {@link #temper} and {@link #split}, which check them first. Default: none.
     */
    public <C> Optional<C> capability(Class<C> type) {
        return Optional.empty();
    }

    /**
     * Fails unless {@code handle} is a matrix, vector or index vector allocated by this backend.
     *
     * @throws IllegalArgumentException naming the handle's kind
     */
    public final <H> H own(H handle) {
        if (handle == null) {
            throw new IllegalArgumentException("missing buffer");
        }
        if (!owns(handle)) {
            String kind = handle instanceof ParticleMatrix ? "particle matrix"
                    : handle instanceof ParticleVector ? "particle vector" : "index vector";
            throw new IllegalArgumentException(kind + " belongs to another backend");
        }
        return handle;
    }

    /** Fails unless rows {@code [first, first + count)} lie inside {@code m}, a matrix of this backend. */
    public final void rows(ParticleMatrix m, int first, int count) {
        own(m);
        if (first < 0 || count < 0 || (long) first + count > m.rows()) {
            throw new IllegalArgumentException("rows [" + first + ", " + ((long) first + count) + ") outside a matrix of "
                    + m.rows() + " rows");
        }
    }

    /** Fails unless entries {@code [first, first + count)} lie inside {@code v}, a vector of this backend. */
    public final void range(ParticleVector v, int first, int count) {
        range(own(v).length(), first, count);
    }

    /** Fails unless entries {@code [first, first + count)} lie inside {@code v}, an index vector of this backend. */
    public final void range(IndexVector v, int first, int count) {
        range(own(v).length(), first, count);
    }

    private static void range(int length, int first, int count) {
        if (first < 0 || count < 0 || (long) first + count > length) {
            throw new IllegalArgumentException("entries [" + first + ", " + ((long) first + count) + ") outside a vector of "
                    + length);
        }
    }

    private void indices(IndexVector index, int count, int bound) {
        range(index, 0, count);
        if (count > 0 && !indicesWithin(index, count, bound)) {
            throw new IllegalArgumentException("gather index outside [0, " + bound + ")");
        }
    }

    private void distinct(Object src, Object dst) {
        own(src);
        own(dst);
        if (src == dst) {
            throw new IllegalArgumentException("gather: source and destination must differ");
        }
    }

    private static void sameColumns(ParticleMatrix a, ParticleMatrix b) {
        if (a.cols() != b.cols()) {
            throw new IllegalArgumentException("matrices of " + a.cols() + " and " + b.cols() + " columns");
        }
    }

    private static void nonEmpty(int count) {
        if (count == 0) {
            throw new IllegalArgumentException("cannot summarize zero weights");
        }
    }

    private static void finite(double value, String what) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(what + " must be finite, got " + value);
        }
    }

    /** Fails once the backend is closed. */
    protected final void checkOpen() {
        if (closed) {
            throw new IllegalStateException("backend is closed");
        }
    }

    /** Whether {@link #close} ran. */
    protected final boolean isClosed() {
        return closed;
    }

    /**
     * Waits until all work queued on the device has finished. Operations that return values to the
     * host already wait; this is for timing. A no-op on backends that run synchronously.
     */
    public void synchronize() {
    }

    /** Frees everything the backend still holds; closing twice is harmless. */
    @Override
    public final void close() {
        if (closed) {
            return;
        }
        try {
            release();
        } finally {
            closed = true;
        }
    }

    @Override
    public String toString() {
        return description();
    }

    // Hooks. Arguments are checked: handles belong to this backend, ranges lie inside them, counts are positive.

    /** Frees the backend's resources; called once, by {@link #close}, while the backend still counts as open. */
    protected abstract void release();

    /**
     * Throws {@link org.logz.memory.InsufficientMemoryException} when the footprint's matrices and
     * vectors do not fit where this backend keeps them (off-heap and heap on the CPU, device memory on a
     * GPU).
     */
    protected abstract void checkDeviceMemory(Footprint footprint, String what);

    /** Whether {@code handle} was allocated by this backend (open or closed). */
    protected abstract boolean owns(Object handle);

    protected abstract ParticleMatrix newMatrix(int rows, int cols);

    protected abstract ParticleVector newVector(int length);

    protected abstract IndexVector newIndices(int length);

    protected abstract void doUpload(float[] rowMajor, int rows, ParticleMatrix dst);

    protected abstract void doUpload(double[] values, ParticleVector dst);

    protected abstract void doUpload(int[] values, IndexVector dst);

    protected abstract float[] doDownload(ParticleMatrix src, int rows);

    protected abstract double[] doDownload(ParticleVector src, int count);

    protected abstract int[] doDownload(IndexVector src, int count);

    protected abstract void doFill(ParticleVector v, int first, int count, double value);

    protected abstract void doSequence(IndexVector v, int first, int count, int start);

    protected abstract void doCopyRows(ParticleMatrix src, int srcRow, ParticleMatrix dst, int dstRow, int count);

    protected abstract void doCopy(ParticleVector src, int srcOffset, ParticleVector dst, int dstOffset, int count);

    /** Whether {@code index[0, count)} all lie in {@code [0, bound)}. */
    protected abstract boolean indicesWithin(IndexVector index, int count, int bound);

    protected abstract void doGatherRows(ParticleMatrix src, IndexVector index, int count, ParticleMatrix dst, int dstRow);

    protected abstract void doGather(ParticleVector src, IndexVector index, int count, ParticleVector dst, int dstOffset);

    protected abstract void doGather(IndexVector src, IndexVector index, int count, IndexVector dst, int dstOffset);

    protected abstract void doZeroColumns(ParticleMatrix m, int first, int count, int fromColumn);

    protected abstract void doAxpy(double a, ParticleVector x, ParticleVector y, int first, int count);

    protected abstract void doScale(ParticleVector v, int first, int count, double s);

    protected abstract WeightSummary doSummarize(ParticleVector logW, int first, int count);

    /** Default: {@code logW + s·delta} into a scratch vector, then {@link #doSummarize}. */
    protected WeightSummary doSummarize(ParticleVector logW, ParticleVector delta, double s, int first, int count) {
        try (ParticleVector trial = newVector(count)) {
            doCopy(logW, first, trial, 0, count);
            try (ParticleVector step = newVector(count)) {
                doCopy(delta, first, step, 0, count);
                doAxpy(s, step, trial, 0, count);
            }
            return doSummarize(trial, 0, count);
        }
    }

    /** {@link WeightedMoments#of} on the device, in an order fixed by the backend. */
    protected abstract WeightedMoments doMoments(ParticleVector logW, ParticleVector values, int offset, int stride,
                                                 int count);

    /** Must reject NaN and +∞ weights and all-zero weights with an {@link IllegalArgumentException}. */
    protected abstract void doResample(ResamplingScheme scheme, ParticleVector logW, int count, int offspring, long seed,
                                       int step, IndexVector out);

    protected abstract void doRandomIndices(int bound, int count, long seed, int step, IndexVector out);
}
