package org.logz.cpu;

import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;

import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.backend.RbmOps;
import org.logz.backend.WeightSummary;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The CPU reference backend. Particle matrices are tiles of {@value CpuMatrix#TILE_ROWS} rows in
 * off-heap ND4J arrays; matrix products are single-threaded OpenBLAS SGEMMs through ND4J, one per
 * tile, and tiles run in parallel on {@code threads} Java threads. Per-particle vectors live on the
 * heap. Reductions run in a fixed order, and every row's arithmetic is independent of the others, so
 * results do not depend on the number of threads.
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
    public void upload(float[] rowMajor, int rows, ParticleMatrix dst) {
        CpuMatrix m = own(dst);
        m.checkRows(rows);
        if (rowMajor.length < (long) rows * m.cols()) {
            throw new IllegalArgumentException("upload of " + rows + " rows needs " + (long) rows * m.cols()
                    + " values, got " + rowMajor.length);
        }
        for (int t = 0; t < CpuMatrix.tileCount(rows); t++) {
            int n = CpuMatrix.rowsInTile(t, rows);
            FloatBuffer buf = m.buffer(t);
            buf.put(0, rowMajor, t * CpuMatrix.TILE_ROWS * m.cols(), n * m.cols());
        }
    }

    @Override
    public void upload(double[] values, ParticleVector dst) {
        CpuVector v = own(dst);
        v.checkCount(values.length);
        System.arraycopy(values, 0, v.values(), 0, values.length);
    }

    @Override
    public float[] download(ParticleMatrix src, int rows) {
        CpuMatrix m = own(src);
        m.checkRows(rows);
        float[] out = new float[rows * m.cols()];
        for (int t = 0; t < CpuMatrix.tileCount(rows); t++) {
            int n = CpuMatrix.rowsInTile(t, rows);
            m.buffer(t).get(0, out, t * CpuMatrix.TILE_ROWS * m.cols(), n * m.cols());
        }
        return out;
    }

    @Override
    public double[] download(ParticleVector src, int count) {
        CpuVector v = own(src);
        v.checkCount(count);
        return Arrays.copyOf(v.values(), count);
    }

    @Override
    public void fill(ParticleVector v, int count, double value) {
        CpuVector cv = own(v);
        cv.checkCount(count);
        Arrays.fill(cv.values(), 0, count, value);
    }

    @Override
    public WeightSummary summarize(ParticleVector logW, int count) {
        CpuVector v = own(logW);
        v.checkCount(count);
        if (count == 0) {
            throw new IllegalArgumentException("cannot summarize zero weights");
        }
        double[] lw = v.values();
        double[] twice = new double[count];
        for (int i = 0; i < count; i++) {
            twice[i] = 2.0 * lw[i];
        }
        return new WeightSummary(count, LogSpace.logSumExp(lw, count), LogSpace.logSumExp(twice, count));
    }

    @Override
    public RbmOps bind(Rbm model, BaseRate baseRate) {
        checkOpen();
        return new CpuRbmOps(this, model, baseRate);
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

    /** Work on one tile: rows {@code [0, rows)} of tile {@code tile} are live. */
    @FunctionalInterface
    interface TileTask {
        void run(int tile, int rows);
    }

    /** Runs {@code task} on every tile that covers particles {@code [0, count)}, in parallel. */
    void forEachTile(int count, TileTask task) {
        checkOpen();
        int tiles = CpuMatrix.tileCount(count);
        if (pool == null || tiles == 1) {
            for (int t = 0; t < tiles; t++) {
                task.run(t, CpuMatrix.rowsInTile(t, count));
            }
            return;
        }
        List<Callable<Void>> work = new ArrayList<>(tiles);
        for (int t = 0; t < tiles; t++) {
            int tile = t;
            work.add(() -> {
                task.run(tile, CpuMatrix.rowsInTile(tile, count));
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
}
