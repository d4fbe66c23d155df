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
 * {@code V = H Wᵀ}, with the CPU backend's layout: 64-row tiles, one single-threaded SGEMM per
 * tile, tiles spread over the same number of threads. The yardstick that sweep times are divided by.
 */
final class GemmBaseline implements AutoCloseable {
    private static final int TILE_ROWS = 64;
    private final INDArray w;
    private final INDArray[] x;
    private final INDArray[] u;
    private final INDArray[] v;
    private final ForkJoinPool pool;

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
        for (int t = 0; t < x.length; t++) {
            x[t].close();
            u[t].close();
            v[t].close();
        }
    }
}
