package org.logz.cpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;

import org.logz.backend.ParticleMatrix;
import org.logz.kernel.ProductTiming;
import org.logz.model.Rbm;
import org.logz.random.StreamTag;

/**
 * The CPU backend's {@link ProductTiming}: times an RBM sweep's two products with the backend's RBM arithmetic, as its
 * kernels lay them out (each thread's run of pieces, {@link CpuBackend#partition}) or one whole-shape product per
 * thread over contiguous rows, on the inputs a sweep of the chains' current states multiplies: the states themselves and a hidden draw from
 * them at β = 1. The kernels multiply sparse states faster than dense ones, so random states would time something else.
 */
final class CpuProductTiming implements ProductTiming {
    private final CpuBackend backend;

    CpuProductTiming(CpuBackend backend) {
        this.backend = backend;
    }

    @Override
    public double seconds(Rbm rbm, ParticleMatrix x, int chains, int sweeps, boolean wholeShape) {
        CpuMatrix states = backend.own(x);
        states.checkRows(chains);
        return seconds(backend, rbm, states, chains, sweeps, wholeShape);
    }

    /** Every unit on: the dense micro-kernel, whose time does not depend on the values. */
    @Override
    public OptionalDouble denseSeconds(Rbm rbm, int chains, int sweeps) {
        return OptionalDouble.of(seconds(backend, rbm, null, chains, sweeps, true));
    }

    /** Host products, next to which a host BLAS's whole-shape SGEMM is the floor. */
    @Override
    public boolean onHost() {
        return true;
    }

    /** With {@code states} null, on dense inputs: every visible and hidden unit on. */
    private static double seconds(CpuBackend backend, Rbm rbm, CpuMatrix states, int chains, int sweeps,
                                  boolean wholeShape) {
        int n = rbm.visible();
        int h = rbm.hidden();
        // the rows of each part, one list of parts per thread
        List<List<Integer>> runs = new ArrayList<>();
        if (wholeShape) {
            int parts = Math.min(backend.threads(), chains);
            for (int p = 0; p < parts; p++) {
                runs.add(List.of(rowsOfPart(chains, parts, p)));
            }
        } else {
            for (List<CpuBackend.Piece> run : backend.partition(0, chains)) {
                runs.add(run.stream().map(piece -> piece.to() - piece.from()).toList());
            }
        }
        List<Tile> buffers = new ArrayList<>();
        try (RbmMath math = RbmMath.create(rbm, new float[n])) {
            float[] one = new float[chains];
            Arrays.fill(one, 1f);
            List<Callable<Void>> work = new ArrayList<>();
            int first = 0;
            for (List<Integer> run : runs) {
                List<Runnable> products = new ArrayList<>();
                for (int rows : run) {
                    Tile x = kept(new Tile(rows, n), buffers);
                    float[] row = new float[n];
                    Arrays.fill(row, 1f);
                    for (int r = 0; r < rows; r++) {
                        if (states != null) {
                            states.readRow(first + r, row, 0);
                        }
                        x.buffer.put(r * n, row, 0, n);
                    }
                    Tile hid = kept(new Tile(rows, h), buffers);
                    Tile u = kept(new Tile(rows, h), buffers);
                    Tile v = kept(new Tile(rows, n), buffers);
                    math.productXw(x, 0, rows, n, u);
                    if (states != null) {
                        math.sampleHidden(u, false, 0, rows, one, 1, first, 0, StreamTag.HIDDEN, hid);
                    } else {
                        float[] on = new float[h];
                        Arrays.fill(on, 1f);
                        for (int r = 0; r < rows; r++) {
                            hid.buffer.put(r * h, on, 0, h);
                        }
                    }
                    products.add(() -> {
                        math.productXw(x, 0, rows, n, u);
                        math.productHwt(hid, 0, rows, n, v);
                    });
                    first += rows;
                }
                work.add(() -> {
                    products.forEach(Runnable::run);
                    return null;
                });
            }
            // one pass over all rows per sweep, as the kernels' calls make it
            long start = System.nanoTime();
            for (int s = 0; s < sweeps; s++) {
                backend.runAll(work);
            }
            return (System.nanoTime() - start) * 1e-9;
        } finally {
            buffers.forEach(Tile::close);
        }
    }

    /** Rows of part p when {@code chains} rows go to {@code parts} contiguous parts as evenly as possible. */
    private static int rowsOfPart(int chains, int parts, int p) {
        return chains / parts + (p < chains % parts ? 1 : 0);
    }

    private static Tile kept(Tile tile, List<Tile> buffers) {
        buffers.add(tile);
        return tile;
    }
}
