package org.logz.bench;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The two matrix products of an RBM Gibbs sweep and nothing else, {@code U = X W} and {@code V = H Wᵀ}, as one
 * whole-shape SGEMM each on all the threads through ND4J's OpenBLAS: the best product of another library the JVM
 * reaches here, one of the floors a CPU sweep is measured against.
 */
final class OpenBlasBaseline implements AutoCloseable {
    /** How long OpenBLAS's threads keep spinning after a call (its default THREAD_TIMEOUT, 2^28 cycles), plus slack. */
    private static final long PARK_MILLIS = 300;

    private final INDArray w;
    private final INDArray x;
    private final INDArray hid;
    private final INDArray u;
    private final INDArray v;
    private final int threads;

    OpenBlasBaseline(float[] weights, int visible, int hidden, int chains, int threads) {
        this.threads = threads;
        w = Nd4j.create(weights, new long[] {visible, hidden}, DataType.FLOAT);
        x = Nd4j.rand(DataType.FLOAT, chains, visible).gt(0.5).castTo(DataType.FLOAT);
        hid = Nd4j.rand(DataType.FLOAT, chains, hidden).gt(0.5).castTo(DataType.FLOAT);
        u = Nd4j.zeros(DataType.FLOAT, chains, hidden);
        v = Nd4j.zeros(DataType.FLOAT, chains, visible);
    }

    /**
     * Runs {@code sweeps} rounds of the two products on all threads and returns their seconds, then waits for
     * OpenBLAS's threads to stop spinning, so that they do not slow down what is timed next on the same cores.
     */
    double seconds(int sweeps) {
        Nd4j.factory().blas().setMaxThreads(threads);
        try {
            long start = System.nanoTime();
            for (int s = 0; s < sweeps; s++) {
                Nd4j.gemm(x, w, u, false, false, 1.0, 0.0);
                Nd4j.gemm(hid, w, v, false, true, 1.0, 0.0);
            }
            return (System.nanoTime() - start) * 1e-9;
        } finally {
            // the CPU backend's other kernels expect a single-threaded BLAS
            Nd4j.factory().blas().setMaxThreads(1);
            park();
        }
    }

    private static void park() {
        try {
            Thread.sleep(PARK_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        w.close();
        x.close();
        hid.close();
        u.close();
        v.close();
    }
}
