package org.logz.cpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.backend.Splitting;
import org.logz.backend.Tempering;
import org.logz.backend.TemperingMoves;
import org.logz.backend.TemperingSteps;
import org.logz.backend.WeightSummary;
import org.logz.backend.WeightedMoments;
import org.logz.kernel.ProductTiming;
import org.logz.memory.Footprint;
import org.logz.memory.HostMemory;
import org.logz.memory.InsufficientMemoryException;
import org.logz.resample.Resampling;
import org.logz.resample.ResamplingScheme;

/**
 * The CPU reference backend. Particle matrices are off-heap tiles of {@value CpuMatrix#TILE_ROWS} rows
 * ({@link Tile}), and tiles run in parallel on {@code threads} Java threads (the RBM kernels in balanced pieces of
 * tiles, {@link #partition}); the RBM kernels' products and
 * draws are native (CpuNative) or Java with the same bits. Per-particle vectors live on the
 * heap. Reductions run in a fixed order, and every row's arithmetic is independent of the others, so
 * results do not depend on the number of threads. Resampling runs the host reference
 * {@link Resampling} as is.
 */
public final class CpuBackend extends ParticleBackend {
    private final int threads;
    private final ForkJoinPool pool;

    CpuBackend(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        this.threads = threads;
        this.pool = threads > 1 ? new ForkJoinPool(threads) : null;
    }

    /** Tiles hold at most 2 GiB ({@link Tile#requireShape}). */
    @Override
    public void requireShape(int rows, int cols, String what) {
        Tile.requireShape(rows, cols, what);
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
        return "cpu (" + CpuNative.arithmetic() + ", " + CpuMatrix.TILE_ROWS + "-row tiles on " + threads + " thread"
                + (threads > 1 ? "s" : "") + ")";
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
    protected boolean owns(Object handle) {
        return handle instanceof CpuMatrix m && m.owner() == this || handle instanceof CpuVector v && v.owner() == this
                || handle instanceof CpuIndexVector i && i.owner() == this;
    }

    @Override
    protected ParticleMatrix newMatrix(int rows, int cols) {
        return new CpuMatrix(this, rows, cols);
    }

    @Override
    protected ParticleVector newVector(int length) {
        return new CpuVector(this, length);
    }

    @Override
    protected IndexVector newIndices(int length) {
        return new CpuIndexVector(this, length);
    }

    @Override
    protected void doUpload(float[] rowMajor, int rows, ParticleMatrix dst) {
        CpuMatrix m = own(dst);
        for (int r = 0; r < rows; r++) {
            m.writeRow(r, rowMajor, r * m.cols());
        }
    }

    @Override
    protected void doUpload(double[] values, ParticleVector dst) {
        System.arraycopy(values, 0, own(dst).values(), 0, values.length);
    }

    @Override
    protected void doUpload(int[] values, IndexVector dst) {
        System.arraycopy(values, 0, own(dst).values(), 0, values.length);
    }

    @Override
    protected float[] doDownload(ParticleMatrix src, int rows) {
        CpuMatrix m = own(src);
        float[] out = new float[rows * m.cols()];
        for (int r = 0; r < rows; r++) {
            m.readRow(r, out, r * m.cols());
        }
        return out;
    }

    @Override
    protected double[] doDownload(ParticleVector src, int count) {
        return Arrays.copyOf(own(src).values(), count);
    }

    @Override
    protected int[] doDownload(IndexVector src, int count) {
        return Arrays.copyOf(own(src).values(), count);
    }

    @Override
    protected void doFill(ParticleVector v, int first, int count, double value) {
        Arrays.fill(own(v).values(), first, first + count, value);
    }

    @Override
    protected void doSequence(IndexVector v, int first, int count, int start) {
        int[] values = own(v).values();
        for (int k = 0; k < count; k++) {
            values[first + k] = start + k;
        }
    }

    @Override
    protected void doCopyRows(ParticleMatrix src, int srcRow, ParticleMatrix dst, int dstRow, int count) {
        CpuMatrix s = own(src);
        CpuMatrix d = own(dst);
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
    protected void doCopy(ParticleVector src, int srcOffset, ParticleVector dst, int dstOffset, int count) {
        System.arraycopy(own(src).values(), srcOffset, own(dst).values(), dstOffset, count);
    }

    @Override
    protected boolean indicesWithin(IndexVector index, int count, int bound) {
        int[] idx = own(index).values();
        for (int k = 0; k < count; k++) {
            if (idx[k] < 0 || idx[k] >= bound) {
                return false;
            }
        }
        return true;
    }

    @Override
    protected void doGatherRows(ParticleMatrix src, IndexVector index, int count, ParticleMatrix dst, int dstRow) {
        CpuMatrix s = own(src);
        CpuMatrix d = own(dst);
        int[] idx = own(index).values();
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
    protected void doGather(ParticleVector src, IndexVector index, int count, ParticleVector dst, int dstOffset) {
        double[] sv = own(src).values();
        double[] dv = own(dst).values();
        int[] idx = own(index).values();
        for (int k = 0; k < count; k++) {
            dv[dstOffset + k] = sv[idx[k]];
        }
    }

    @Override
    protected void doGather(IndexVector src, IndexVector index, int count, IndexVector dst, int dstOffset) {
        int[] sv = own(src).values();
        int[] dv = own(dst).values();
        int[] idx = own(index).values();
        for (int k = 0; k < count; k++) {
            dv[dstOffset + k] = sv[idx[k]];
        }
    }

    @Override
    protected void doZeroColumns(ParticleMatrix m, int first, int count, int fromColumn) {
        CpuMatrix cm = own(m);
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
    protected void doAxpy(double a, ParticleVector x, ParticleVector y, int first, int count) {
        double[] xv = own(x).values();
        double[] yv = own(y).values();
        for (int k = first; k < first + count; k++) {
            yv[k] += a * xv[k];
        }
    }

    @Override
    protected void doScale(ParticleVector v, int first, int count, double s) {
        double[] values = own(v).values();
        for (int k = first; k < first + count; k++) {
            values[k] *= s;
        }
    }

    @Override
    protected WeightSummary doSummarize(ParticleVector logW, int first, int count) {
        return WeightSummary.of(Arrays.copyOfRange(own(logW).values(), first, first + count));
    }

    @Override
    protected WeightSummary doSummarize(ParticleVector logW, ParticleVector delta, double s, int first, int count) {
        double[] lw = own(logW).values();
        double[] d = own(delta).values();
        double[] trial = new double[count];
        for (int k = 0; k < count; k++) {
            trial[k] = lw[first + k] + s * d[first + k];
        }
        return WeightSummary.of(trial);
    }

    @Override
    protected WeightedMoments doMoments(ParticleVector logW, ParticleVector values, int offset, int stride, int count) {
        return WeightedMoments.of(own(logW).values(), own(values).values(), offset, stride, count);
    }

    @Override
    protected void doResample(ResamplingScheme scheme, ParticleVector logW, int count, int offspring, long seed, int step,
                              IndexVector out) {
        Resampling.ancestors(scheme, own(logW).values(), count, offspring, seed, step, own(out).values());
    }

    @Override
    protected void doRandomIndices(int bound, int count, long seed, int step, IndexVector out) {
        Resampling.randomIndices(bound, count, seed, step, own(out).values());
    }

    /**
     * Tempering and splitting run the host reference on the heap vectors, where the CPU keeps them anyway; product
     * timing runs the backend's own RBM arithmetic.
     */
    @Override
    public <C> Optional<C> capability(Class<C> type) {
        Object c = type == TemperingMoves.class ? (TemperingMoves) this::temperOnHeap
                : type == Splitting.class ? (Splitting) this::splitOnHeap
                : type == ProductTiming.class ? new CpuProductTiming(this) : null;
        return Optional.ofNullable(type.cast(c));
    }

    private int splitOnHeap(ParticleVector logW, int count, double scale, ParticleVector carried, IndexVector indices,
                            ParticleVector carriedOut) {
        return Resampling.split(own(logW).values(), count, scale, own(carried).values(), own(indices).values(),
                own(carriedOut).values());
    }

    /** Chains × levels from which a tempering move's draws run on the threads. */
    private static final long PARALLEL_TEMPER_CELLS = 16_384;

    private void temperOnHeap(Tempering t, int count, int levels, long seed, int step) {
        double[] logF = own(t.logF()).values();
        double[] q = own(t.probabilities()).values();
        double[] weight = own(t.logLevelWeight()).values();
        double[] levelBetas = own(t.levelBetas()).values();
        int[] next = own(t.nextLevel()).values();
        double[] betas = own(t.betas()).values();
        BiConsumer<Integer, Integer> drawRows = (from, to) -> {
            for (int r = from; r < to; r++) {
                next[r] = TemperingSteps.draw(logF, weight, r, t.firstChain() + r, levels, seed, step, q);
                betas[r] = levelBetas[next[r]];
            }
        };
        // each chain's draw reads and writes its own row only: on the threads, as the kernels' pieces, where there are
        // enough cells to pay for the hand-off (a tiny RBM's 100 chains on 20 levels ran 30% slower on the pool)
        if ((long) count * levels >= PARALLEL_TEMPER_CELLS) {
            forEachPiece(partition(0, count), p -> drawRows.accept(p.tile() * CpuMatrix.TILE_ROWS + p.from(),
                    p.tile() * CpuMatrix.TILE_ROWS + p.to()));
        } else {
            drawRows.accept(0, count);
        }
        TemperingSteps.accumulate(q, own(t.slope()).values(), own(t.level()).values(), count, levels, t.groups(),
                own(t.statistics()).values());
    }

    @Override
    protected void release() {
        if (pool != null) {
            pool.shutdown();
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
        runAll(work);
    }

    /** Rows [from, to) of tile {@code tile}; {@code index} numbers the pieces of one {@link #partition} from 0. */
    record Piece(int index, int tile, int from, int to) {
    }

    /**
     * Particles {@code [first, first + count)} as one run of pieces per thread: contiguous runs of nearly equal rows,
     * cut where they cross tiles. Whole tiles would leave a thread idle whenever the tiles do not share out evenly
     * (100 chains are tiles of 64 and 36 rows, which two threads run at 78%). The same arguments give the same pieces,
     * so a kernel can keep per-piece state from one call to the next. Particles within one tile are one piece, run on
     * the calling thread: handing a few rows to the pool costs more than it saves (AIS on 32 chains of a small RBM ran
     * at half the speed).
     */
    List<List<Piece>> partition(int first, int count) {
        checkOpen();
        List<List<Piece>> runs = new ArrayList<>(threads);
        boolean oneTile = count > 0 && first / CpuMatrix.TILE_ROWS == (first + count - 1) / CpuMatrix.TILE_ROWS;
        int perRun = oneTile ? count : (count + threads - 1) / threads;
        int index = 0;
        for (int start = first; start < first + count; start += perRun) {
            int end = Math.min(start + perRun, first + count);
            List<Piece> run = new ArrayList<>();
            for (int row = start; row < end; ) {
                int tile = row / CpuMatrix.TILE_ROWS;
                int to = Math.min(end, (tile + 1) * CpuMatrix.TILE_ROWS);
                run.add(new Piece(index++, tile, row - tile * CpuMatrix.TILE_ROWS, to - tile * CpuMatrix.TILE_ROWS));
                row = to;
            }
            runs.add(run);
        }
        return runs;
    }

    /** Runs {@code task} on every piece of {@code runs} ({@link #partition}), each run in order on one thread. */
    void forEachPiece(List<List<Piece>> runs, Consumer<Piece> task) {
        checkOpen();
        if (pool == null || runs.size() == 1) {
            runs.forEach(run -> run.forEach(task));
            return;
        }
        List<Callable<Void>> work = new ArrayList<>(runs.size());
        for (List<Piece> run : runs) {
            work.add(() -> {
                run.forEach(task);
                return null;
            });
        }
        runAll(work);
    }

    /** Runs every task on the backend's threads and waits for all; rethrows the first failure. */
    void runAll(List<Callable<Void>> work) {
        try {
            if (pool == null) {
                for (Callable<Void> c : work) {
                    c.call();
                }
                return;
            }
            for (Future<Void> f : pool.invokeAll(work)) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            rethrow(e.getCause());
        } catch (Exception e) {
            rethrow(e);
        }
    }

    private static void rethrow(Throwable cause) {
        if (cause instanceof RuntimeException re) {
            throw re;
        }
        if (cause instanceof Error err) {
            throw err;
        }
        throw new IllegalStateException(cause);
    }

    private static int tileFrom(int tile, int first) {
        return Math.max(first - tile * CpuMatrix.TILE_ROWS, 0);
    }

    private static int tileTo(int tile, int first, int count) {
        return Math.min(first + count - tile * CpuMatrix.TILE_ROWS, CpuMatrix.TILE_ROWS);
    }

    /** The CPU matrix behind a checked handle. */
    CpuMatrix own(ParticleMatrix m) {
        return (CpuMatrix) own((Object) m);
    }

    CpuVector own(ParticleVector v) {
        return (CpuVector) own((Object) v);
    }

    CpuIndexVector own(IndexVector v) {
        return (CpuIndexVector) own((Object) v);
    }
}
