package org.logz.cpu;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

import org.logz.model.Rbm;

/** Times an RBM sweep's two products with the CPU backend's RBM arithmetic ({@link CpuBackend#productSeconds}). */
final class ProductTiming {
    private ProductTiming() {
    }

    static double seconds(CpuBackend backend, Rbm rbm, int chains, int sweeps, boolean wholeShape) {
        int n = rbm.visible();
        int h = rbm.hidden();
        int parts = wholeShape ? Math.min(backend.threads(), chains) : CpuMatrix.tileCount(chains);
        List<Tile> buffers = new ArrayList<>();
        try (RbmMath math = RbmMath.create(rbm, new float[n])) {
            SplittableRandom random = new SplittableRandom(1);
            List<Callable<Void>> work = new ArrayList<>();
            for (int p = 0; p < parts; p++) {
                int rows = wholeShape ? rowsOfPart(chains, parts, p) : Math.min(CpuMatrix.TILE_ROWS, chains - p * CpuMatrix.TILE_ROWS);
                Tile x = binary(new Tile(rows, n), rows, random, buffers);
                Tile hid = binary(new Tile(rows, h), rows, random, buffers);
                Tile u = kept(new Tile(rows, h), buffers);
                Tile v = kept(new Tile(rows, n), buffers);
                work.add(() -> {
                    math.productXw(x, 0, rows, n, u);
                    math.productHwt(hid, 0, rows, n, v);
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

    private static Tile binary(Tile tile, int rows, SplittableRandom random, List<Tile> buffers) {
        for (int i = 0; i < rows * tile.cols; i++) {
            tile.buffer.put(i, random.nextBoolean() ? 1f : 0f);
        }
        return kept(tile, buffers);
    }
}
