package org.logz.cpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;

import org.logz.backend.GaussianToyOps;
import org.logz.backend.IndexVector;
import org.logz.backend.IsingOps;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.backend.RbmOps;
import org.logz.backend.Tempering;
import org.logz.backend.TemperingSteps;
import org.logz.backend.WeightSummary;
import org.logz.memory.Footprint;
import org.logz.memory.HostMemory;
import org.logz.memory.InsufficientMemoryException;
import org.logz.model.BaseRate;
import org.logz.model.GaussianToy;
import org.logz.model.Ising;
import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;
import org.logz.resample.Resampler;
import org.logz.resample.Resampling;
import org.logz.resample.ResamplingScheme;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The CPU reference backend. Particle matrices are tiles of {@value CpuMatrix#TILE_ROWS} rows in
 * off-heap ND4J arrays; matrix products are single-threaded OpenBLAS SGEMMs through ND4J, one per
 * tile, and tiles run in parallel on {@code threads} Java threads. Per-particle vectors live on the
 * heap. Reductions run in a fixed order, and every row's arithmetic is independent of the others, so
 * results do not depend on the number of threads. Resampling runs the host reference
 * {@link Resampling} as is.
 */
public final class CpuBackend extends ParticleBackend {
    private final int threads;
    private final ForkJoinPool pool;
    private boolean closed;

    CpuBackend(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        this.threads = threads;
        this.pool = threads > 1 ? new ForkJoinPool(threads) : null;
        // Parallelism comes from tiles; a multi-threaded BLAS underneath would oversubscribe the cores.
        Nd4j.factory().blas().setMaxThreads(1);
    }

    /** A CPU backend with {@code threads} worker threads. */
    public static CpuBackend create(int threads) {
        return new CpuBackend(threads);
    }

    public int threads() {
        return threads;
    }

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public String description() {
        return "cpu (ND4J " + Nd4j.getBackend().getClass().getSimpleName() + ", OpenBLAS SGEMM per "
                + CpuMatrix.TILE_ROWS + "-row tile, " + threads + " thread" + (threads > 1 ? "s" : "") + ")";
    }

    /** Matrices live off-heap (against the machine's available memory), vectors on the JVM heap. */
    @Override
    protected void checkDeviceMemory(Footprint footprint, String what) {
        HostMemory.requireHeap(Footprint.heap(footprint.heapBytes()).plus(Footprint.heap(footprint.vectorBytes())).heapBytes(),
                what);
        long available = HostMemory.machineAvailable();
        if (footprint.matrixBytes() > available) {
            throw new InsufficientMemoryException(what, footprint.matrixBytes(), available,
                    "the machine (off-heap particle matrices)", "use fewer chains or particles");
        }
    }

    @Override
    public ParticleMatrix matrix(int rows, int cols) {
        checkOpen();
        return new CpuMatrix(this, rows, cols);
    }

    @Override
    public ParticleVector vector(int length) {
        checkOpen();
        return new CpuVector(this, length);
    }

    @Override
    public IndexVector indices(int length) {
        checkOpen();
        return new CpuIndexVector(this, length);
    }

    @Override
    public void upload(float[] rowMajor, int rows, ParticleMatrix dst) {
        CpuMatrix m = own(dst);
        m.checkRows(rows);
        if (rowMajor.length < (long) rows * m.cols()) {
            throw new IllegalArgumentException("upload of " + rows + " rows needs " + (long) rows * m.cols()
                    + " values, got " + rowMajor.length);
        }
        for (int r = 0; r < rows; r++) {
            m.writeRow(r, rowMajor, r * m.cols());
        }
        countTransfer(4L * rows * m.cols());
    }

    @Override
    public void upload(double[] values, ParticleVector dst) {
        CpuVector v = own(dst);
        v.checkCount(values.length);
        System.arraycopy(values, 0, v.values(), 0, values.length);
        countTransfer(8L * values.length);
    }

    @Override
    public void upload(int[] values, IndexVector dst) {
        CpuIndexVector v = own(dst);
        v.checkRange(0, values.length);
        System.arraycopy(values, 0, v.values(), 0, values.length);
        countTransfer(4L * values.length);
    }

    @Override
    public float[] download(ParticleMatrix src, int rows) {
        CpuMatrix m = own(src);
        m.checkRows(rows);
        float[] out = new float[rows * m.cols()];
        for (int r = 0; r < rows; r++) {
            m.readRow(r, out, r * m.cols());
        }
        countTransfer(4L * out.length);
        return out;
    }

    @Override
    public double[] download(ParticleVector src, int count) {
        CpuVector v = own(src);
        v.checkCount(count);
        countTransfer(8L * count);
        return Arrays.copyOf(v.values(), count);
    }

    @Override
    public int[] download(IndexVector src, int count) {
        CpuIndexVector v = own(src);
        v.checkRange(0, count);
        countTransfer(4L * count);
        return Arrays.copyOf(v.values(), count);
    }

    @Override
    public void fill(ParticleVector v, int first, int count, double value) {
        CpuVector cv = own(v);
        cv.checkRange(first, count);
        Arrays.fill(cv.values(), first, first + count, value);
    }

    @Override
    public void sequence(IndexVector v, int first, int count, int start) {
        CpuIndexVector iv = own(v);
        iv.checkRange(first, count);
        int[] values = iv.values();
        for (int k = 0; k < count; k++) {
            values[first + k] = start + k;
        }
    }

    @Override
    public void copyRows(ParticleMatrix src, int srcRow, ParticleMatrix dst, int dstRow, int count) {
        CpuMatrix s = own(src);
        CpuMatrix d = own(dst);
        sameColumns(s, d);
        s.checkRows(srcRow, count);
        d.checkRows(dstRow, count);
        if (s == d && srcRow < dstRow + count && dstRow < srcRow + count && count > 0) {
            throw new IllegalArgumentException("copyRows: overlapping ranges in the same matrix");
        }
        forEachTile(dstRow, count, (t, from, to) -> {
            float[] row = new float[d.cols()];
            for (int r = from; r < to; r++) {
                int dRow = t * CpuMatrix.TILE_ROWS + r;
                s.readRow(srcRow + dRow - dstRow, row, 0);
                d.writeRow(dRow, row, 0);
            }
        });
    }

    @Override
    public void copy(ParticleVector src, int srcOffset, ParticleVector dst, int dstOffset, int count) {
        CpuVector s = own(src);
        CpuVector d = own(dst);
        s.checkRange(srcOffset, count);
        d.checkRange(dstOffset, count);
        System.arraycopy(s.values(), srcOffset, d.values(), dstOffset, count);
    }

    @Override
    public void gatherRows(ParticleMatrix src, IndexVector index, int count, ParticleMatrix dst, int dstRow) {
        CpuMatrix s = own(src);
        CpuMatrix d = own(dst);
        int[] idx = indexValues(index, count, s.rows(), s == d);
        sameColumns(s, d);
        d.checkRows(dstRow, count);
        forEachTile(dstRow, count, (t, from, to) -> {
            float[] row = new float[d.cols()];
            for (int r = from; r < to; r++) {
                int dRow = t * CpuMatrix.TILE_ROWS + r;
                s.readRow(idx[dRow - dstRow], row, 0);
                d.writeRow(dRow, row, 0);
            }
        });
    }

    @Override
    public void gather(ParticleVector src, IndexVector index, int count, ParticleVector dst, int dstOffset) {
        CpuVector s = own(src);
        CpuVector d = own(dst);
        int[] idx = indexValues(index, count, s.length(), s == d);
        d.checkRange(dstOffset, count);
        double[] sv = s.values();
        double[] dv = d.values();
        for (int k = 0; k < count; k++) {
            dv[dstOffset + k] = sv[idx[k]];
        }
    }

    @Override
    public void gather(IndexVector src, IndexVector index, int count, IndexVector dst, int dstOffset) {
        CpuIndexVector s = own(src);
        CpuIndexVector d = own(dst);
        int[] idx = indexValues(index, count, s.length(), s == d);
        d.checkRange(dstOffset, count);
        int[] sv = s.values();
        int[] dv = d.values();
        for (int k = 0; k < count; k++) {
            dv[dstOffset + k] = sv[idx[k]];
        }
    }

    @Override
    public void zeroColumns(ParticleMatrix m, int first, int count, int fromColumn) {
        CpuMatrix cm = own(m);
        cm.checkRows(first, count);
        if (fromColumn < 0 || fromColumn > cm.cols()) {
            throw new IllegalArgumentException("column " + fromColumn + " outside a matrix of " + cm.cols() + " columns");
        }
        int cols = cm.cols();
        forEachTile(first, count, (t, from, to) -> {
            var buf = cm.buffer(t);
            for (int r = from; r < to; r++) {
                for (int c = fromColumn; c < cols; c++) {
                    buf.put(r * cols + c, 0f);
                }
            }
        });
    }

    @Override
    public WeightSummary summarize(ParticleVector logW, int first, int count) {
        CpuVector v = own(logW);
        v.checkRange(first, count);
        if (count == 0) {
            throw new IllegalArgumentException("cannot summarize zero weights");
        }
        double[] lw = Arrays.copyOfRange(v.values(), first, first + count);
        double[] twice = new double[count];
        for (int i = 0; i < count; i++) {
            twice[i] = 2.0 * lw[i];
        }
        return new WeightSummary(count, LogSpace.logSumExp(lw, count), LogSpace.logSumExp(twice, count));
    }

    @Override
    public Resampler resampler(ResamplingScheme scheme) {
        return (logW, count, offspring, seed, step, out) -> {
            CpuVector w = own(logW);
            w.checkCount(count);
            CpuIndexVector o = own(out);
            o.checkRange(0, offspring);
            Resampling.ancestors(scheme, w.values(), count, offspring, seed, step, o.values());
        };
    }

    @Override
    public int split(ParticleVector logW, int count, double scale, ParticleVector carried, IndexVector indices,
                     ParticleVector carriedOut) {
        CpuVector w = own(logW);
        CpuVector c = own(carried);
        CpuIndexVector idx = own(indices);
        CpuVector out = own(carriedOut);
        w.checkCount(count);
        c.checkCount(count);
        int capacity = Resampling.splitCapacity(count, scale);
        if (idx.length() < capacity || out.length() < capacity) {
            throw new IllegalArgumentException("split of " + count + " particles needs outputs of " + capacity + " entries");
        }
        return Resampling.split(w.values(), count, scale, c.values(), idx.values(), out.values());
    }

    @Override
    public void randomIndices(int bound, int count, long seed, int step, IndexVector out) {
        CpuIndexVector o = own(out);
        o.checkRange(0, count);
        Resampling.randomIndices(bound, count, seed, step, o.values());
    }

    @Override
    public void linearLevels(ParticleVector values, int count, ParticleVector levelBetas, int levels, ParticleVector logF,
                             ParticleVector slope) {
        double[] v = own(values).values();
        double[] betas = own(levelBetas).values();
        CpuVector f = own(logF);
        CpuVector d = own(slope);
        own(values).checkCount(count);
        f.checkCount(count * levels);
        d.checkCount(count * levels);
        for (int r = 0; r < count; r++) {
            for (int k = 0; k < levels; k++) {
                f.values()[r * levels + k] = betas[k] * v[r];
                d.values()[r * levels + k] = v[r];
            }
        }
    }

    @Override
    public void temper(Tempering t, int count, int levels, long seed, int step) {
        double[] logF = own(t.logF()).values();
        double[] slope = own(t.slope()).values();
        double[] weight = own(t.logLevelWeight()).values();
        double[] levelBetas = own(t.levelBetas()).values();
        int[] level = own(t.level()).values();
        int[] next = own(t.nextLevel()).values();
        double[] betas = own(t.betas()).values();
        double[] q = own(t.probabilities()).values();
        double[] stats = own(t.statistics()).values();
        if (logF.length < count * levels || q.length < count * levels || stats.length < 4L * levels * t.groups()
                || weight.length < levels || level.length < count || next.length < count || betas.length < count) {
            throw new IllegalArgumentException("tempering buffers are too small for " + count + " chains × " + levels
                    + " levels");
        }
        for (int r = 0; r < count; r++) {
            next[r] = TemperingSteps.draw(logF, weight, r, levels, seed, step, q);
            betas[r] = levelBetas[next[r]];
        }
        TemperingSteps.accumulate(q, slope, level, count, levels, t.groups(), stats);
    }

    @Override
    public RbmOps bind(Rbm model, BaseRate baseRate) {
        checkOpen();
        return new CpuRbmOps(this, model, baseRate);
    }

    @Override
    public IsingOps bind(Ising model) {
        checkOpen();
        return new CpuIsingOps(this, model);
    }

    @Override
    public GaussianToyOps bind(GaussianToy model) {
        checkOpen();
        return new CpuGaussianToyOps(this, model);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (pool != null) {
            pool.shutdown();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("backend is closed");
        }
    }

    private int[] indexValues(IndexVector index, int count, int bound, boolean sameBuffer) {
        if (sameBuffer) {
            throw new IllegalArgumentException("gather: source and destination must differ");
        }
        CpuIndexVector iv = own(index);
        iv.checkRange(0, count);
        int[] idx = iv.values();
        for (int k = 0; k < count; k++) {
            if (idx[k] < 0 || idx[k] >= bound) {
                throw new IllegalArgumentException("gather index " + idx[k] + " at " + k + " outside [0, " + bound + ")");
            }
        }
        return idx;
    }

    private static void sameColumns(CpuMatrix a, CpuMatrix b) {
        if (a.cols() != b.cols()) {
            throw new IllegalArgumentException("matrices of " + a.cols() + " and " + b.cols() + " columns");
        }
    }

    /** Work on one tile: tile-local rows {@code [from, to)} of tile {@code tile} are live. */
    @FunctionalInterface
    interface TileTask {
        void run(int tile, int from, int to);
    }

    /** Runs {@code task} on every tile that covers particles {@code [first, first + count)}, in parallel. */
    void forEachTile(int first, int count, TileTask task) {
        checkOpen();
        if (count <= 0) {
            return;
        }
        int firstTile = first / CpuMatrix.TILE_ROWS;
        int lastTile = (first + count - 1) / CpuMatrix.TILE_ROWS;
        if (pool == null || firstTile == lastTile) {
            for (int t = firstTile; t <= lastTile; t++) {
                task.run(t, tileFrom(t, first), tileTo(t, first, count));
            }
            return;
        }
        List<Callable<Void>> work = new ArrayList<>(lastTile - firstTile + 1);
        for (int t = firstTile; t <= lastTile; t++) {
            int tile = t;
            work.add(() -> {
                task.run(tile, tileFrom(tile, first), tileTo(tile, first, count));
                return null;
            });
        }
        try {
            for (Future<Void> f : pool.invokeAll(work)) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }

    private static int tileFrom(int tile, int first) {
        return Math.max(first - tile * CpuMatrix.TILE_ROWS, 0);
    }

    private static int tileTo(int tile, int first, int count) {
        return Math.min(first + count - tile * CpuMatrix.TILE_ROWS, CpuMatrix.TILE_ROWS);
    }

    CpuMatrix own(ParticleMatrix m) {
        if (!(m instanceof CpuMatrix cm) || cm.owner() != this) {
            throw new IllegalArgumentException("particle matrix belongs to another backend");
        }
        return cm;
    }

    CpuVector own(ParticleVector v) {
        if (!(v instanceof CpuVector cv) || cv.owner() != this) {
            throw new IllegalArgumentException("particle vector belongs to another backend");
        }
        return cv;
    }

    CpuIndexVector own(IndexVector v) {
        if (!(v instanceof CpuIndexVector cv) || cv.owner() != this) {
            throw new IllegalArgumentException("index vector belongs to another backend");
        }
        return cv;
    }
}
