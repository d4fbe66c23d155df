package org.logz.cuda;

/** Launch-shape arithmetic shared by the launchers (which alone pick grids and blocks). */
final class Launch {
    /** Threads per block of every 1-D kernel (LOGZ_BLOCK in common.cuh). */
    static final int BLOCK = 256;
    /** Threads per warp; per-particle reductions use one warp per particle. */
    static final int WARP = 32;

    private Launch() {
    }

    /** Blocks for a grid-stride kernel over {@code work} items: enough to cover it, no more than the device runs at once. */
    static int grid(CudaDevice device, long work) {
        long blocks = (work + BLOCK - 1) / BLOCK;
        return (int) Math.max(1, Math.min(blocks, device.concurrentBlocks()));
    }

    /** Blocks for a warp-per-item kernel over {@code items}. */
    static int warpGrid(CudaDevice device, long items) {
        return grid(device, items * WARP);
    }
}
