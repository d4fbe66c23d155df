package org.logz.bench;

/**
 * Resident blocks and warps per SM that a kernel's block size, registers and shared memory allow, as NVIDIA's
 * occupancy calculator counts them. Limits from the CUDA C++ Programming Guide's table of technical specifications
 * per compute capability (8.0: 64 warps, 32 blocks, 64 K registers, 164 KB of shared memory per SM; 9.0: the same
 * with 228 KB), registers allocated per warp in units of 256 within each of the SM's four partitions, shared memory
 * in units of 128 bytes with 1 KB reserved per block.
 */
public enum Occupancy {
    SM_80(167_936),
    SM_90(233_472);

    private static final int WARPS = 64;
    private static final int BLOCKS = 32;
    private static final int REGISTERS = 65_536;
    private static final int REGISTER_UNIT = 256;
    private static final int RESERVED_SHARED = 1_024;
    private static final int SHARED_UNIT = 128;
    private static final int PARTITIONS = 4;

    private final int sharedPerSm;

    Occupancy(int sharedPerSm) {
        this.sharedPerSm = sharedPerSm;
    }

    /** Blocks of {@code threads} threads, {@code registers} registers each and {@code shared} bytes that fit an SM. */
    public int blocksPerSm(int threads, int registers, int shared) {
        int warps = (threads + 31) / 32;
        int perWarp = (registers * 32 + REGISTER_UNIT - 1) / REGISTER_UNIT * REGISTER_UNIT;
        // registers are split among the SM's four partitions, each holding whole warps
        int warpsByRegisters = perWarp == 0 ? WARPS : REGISTERS / PARTITIONS / perWarp * PARTITIONS;
        int byRegisters = warpsByRegisters / warps;
        int perBlock = (shared + SHARED_UNIT - 1) / SHARED_UNIT * SHARED_UNIT + RESERVED_SHARED;
        int byShared = sharedPerSm / perBlock;
        return Math.min(Math.min(BLOCKS, WARPS / warps), Math.min(byRegisters, byShared));
    }

    /** Resident warps over the SM's 64. */
    public double occupancy(int threads, int blocks) {
        return (double) blocks * ((threads + 31) / 32) / WARPS;
    }
}
