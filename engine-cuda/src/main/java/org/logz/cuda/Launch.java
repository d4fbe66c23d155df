package org.logz.cuda;

/** Launch-shape arithmetic shared by the launchers (which alone pick grids and blocks). */
final class Launch {
    /** Threads per block of every 1-D kernel (LOGZ_BLOCK in common.cuh). */
    static final int BLOCK = 256;
    /** Threads per warp; per-particle reductions use one warp per particle. */
    static final int WARP = 32;
    /** CUDA's limit on gridDim.y and gridDim.z (gridDim.x allows 2^31 - 1). */
    static final int MAX_GRID_Y = 65_535;

    private Launch() {
    }

    /** Blocks for a grid-stride kernel over {@code work} items: enough to cover it, no more than the device runs at once. */
    static int grid(CudaDevice device, long work) {
        long blocks = (work + BLOCK - 1) / BLOCK;
        return (int) Math.max(1, Math.min(blocks, device.concurrentBlocks()));
    }

    /**
     * Fails, naming the kernel and its shape, on a launch shape no CUDA device accepts; both devices
     * call it, so the emulator refuses what a GPU would.
     */
    static void checkShape(String kernel, int gridX, int gridY, int blockX, int blockY, int sharedBytes) {
        if (gridX < 1 || gridY < 1 || gridY > MAX_GRID_Y || blockX < 1 || blockY < 1 || (long) blockX * blockY > 1024
                || sharedBytes < 0 || sharedBytes > 48 * 1024) {
            throw new IllegalStateException("kernel " + kernel + ": launch shape " + shape(gridX, gridY, blockX, blockY,
                    sharedBytes) + " exceeds CUDA's limits (gridDim.y ≤ 65535, 1024 threads per block, 48 KiB static shared)");
        }
    }

    /** "grid (x, y) × block (x, y), S bytes of shared memory", for messages. */
    static String shape(int gridX, int gridY, int blockX, int blockY, int sharedBytes) {
        return "grid (" + gridX + ", " + gridY + ") × block (" + blockX + ", " + blockY + "), " + sharedBytes
                + " bytes of dynamic shared memory";
    }

    /** Blocks for a warp-per-item kernel over {@code items}. */
    static int warpGrid(CudaDevice device, long items) {
        return grid(device, items * WARP);
    }
}
