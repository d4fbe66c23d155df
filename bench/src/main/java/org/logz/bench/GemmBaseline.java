package org.logz.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The two matrix products of an RBM Gibbs sweep and nothing else, {@code U = X W} and
 * {@code V = H Wᵀ}, two ways: with the CPU backend's layout (64-row tiles, one single-threaded SGEMM
 * per tile, tiles spread over the same number of threads), and as one whole-shape SGEMM each on all
 * the threads, the best product the JVM reaches here (ND4J's OpenBLAS). The whole-shape pair is the
 * floor a sweep is measured against; the tiled pair shows what the tiling itself costs.
 */
final class GemmBaseline implements AutoCloseable {
    private static final int TILE_ROWS = 64;
    private final INDArray w;
    private final INDArray[] x;
    private final INDArray[] u;
    private final INDArray[] v;
    private final ForkJoinPool pool;
    private final INDArray wholeX;
    private final INDArray wholeU;
    private final INDArray wholeV;
    private final int threads;

    GemmBaseline(float[] weights, int visible, int hidden, int chains, int threads) {
        Nd4j.factory().blas().setMaxThreads(1);
        w = Nd4j.create(weights, new long[] {visible, hidden}, DataType.FLOAT);
        int tiles = (chains + TILE_ROWS - 1) / TILE_ROWS;
        x = new INDArray[tiles];
        u = new INDArray[tiles];
        v = new INDArray[tiles];
        for (int t = 0; t < tiles; t++) {
            x[t] = Nd4j.rand(DataType.FLOAT, TILE_ROWS, visible).gt(0.5).castTo(DataType.FLOAT);
            u[t] = Nd4j.zeros(DataType.FLOAT, TILE_ROWS, hidden);
            v[t] = Nd4j.zeros(DataType.FLOAT, TILE_ROWS, visible);
        }
        pool = new ForkJoinPool(threads);
        this.threads = threads;
        wholeX = Nd4j.rand(DataType.FLOAT, chains, visible).gt(0.5).castTo(DataType.FLOAT);
        wholeU = Nd4j.zeros(DataType.FLOAT, chains, hidden);
        wholeV = Nd4j.zeros(DataType.FLOAT, chains, visible);
    }

    /** Runs {@code sweeps} rounds of the two whole-shape products on all threads; returns seconds. */
    double timeWhole(int sweeps) {
        Nd4j.factory().blas().setMaxThreads(threads);
        try {
            long start = System.nanoTime();
            for (int s = 0; s < sweeps; s++) {
                Nd4j.gemm(wholeX, w, wholeU, false, false, 1.0, 0.0);
                Nd4j.gemm(wholeU, w, wholeV, false, true, 1.0, 0.0);
            }
            return (System.nanoTime() - start) * 1e-9;
        } finally {
            // the backend's tiles run single-threaded SGEMMs
            Nd4j.factory().blas().setMaxThreads(1);
        }
    }

    /** Runs {@code sweeps} rounds of the two products over all tiles; returns seconds. */
    double time(int sweeps) {
        List<Callable<Void>> work = new ArrayList<>();
        for (int t = 0; t < x.length; t++) {
            int tile = t;
            work.add(() -> {
                for (int s = 0; s < sweeps; s++) {
                    Nd4j.gemm(x[tile], w, u[tile], false, false, 1.0, 0.0);
                    Nd4j.gemm(u[tile], w, v[tile], false, true, 1.0, 0.0);
                }
                return null;
            });
        }
        long start = System.nanoTime();
        try {
            for (var f : pool.invokeAll(work)) {
                f.get();
            }
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
        return (System.nanoTime() - start) * 1e-9;
    }

    @Override
    public void close() {
        pool.shutdown();
        w.close();
        wholeX.close();
        wholeU.close();
        wholeV.close();
        for (int t = 0; t < x.length; t++) {
            x[t].close();
            u[t].close();
            v[t].close();
        }
    }
}
