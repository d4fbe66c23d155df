package org.logz.cpu;

import java.util.function.Supplier;

/**
 * Row-by-row work of the per-particle Java kernels (GP classification's elliptical slice sampler, HMC): rows [0, count)
 * of a state matrix, tile by tile in parallel, each tile with one row buffer and one scratch of its own, so results
 * do not depend on the thread count.
 */
final class CpuRows {
    private CpuRows() {
    }

    /** What one row does, given its values, its row index (its chain, less the batch's first) and the tile's scratch. */
    interface Task<S> {
        void run(float[] row, int particle, S scratch);
    }

    /** Runs {@code task} on rows [0, count) of {@code xm}, {@code width} values each; {@code write} stores each row back. */
    static <S> void each(CpuBackend backend, CpuMatrix xm, int count, int width, boolean write, Supplier<S> scratch,
                         Task<S> task) {
        backend.forEachTile(0, count, (t, from, to) -> {
            float[] row = new float[width];
            S s = scratch.get();
            for (int r = from; r < to; r++) {
                int particle = t * CpuMatrix.TILE_ROWS + r;
                xm.readRow(particle, row, 0);
                task.run(row, particle, s);
                if (write) {
                    xm.writeRow(particle, row, 0);
                }
            }
        });
    }
}
