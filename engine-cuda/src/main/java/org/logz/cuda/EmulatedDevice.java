package org.logz.cuda;

import org.logz.memory.HostMemory;

/**
 * The device of the host emulation (backend {@code cuda-emulated}): the kernels of kernels-cu,
 * compiled for the host, run as fibers; device memory is host memory; SGEMM runs on the host
 * ({@link GemmPath#BLAS}) or through the tiled GEMM kernels ({@link GemmPath#TILED}). Slow; for tests
 * and for seeing the GPU code path run anywhere.
 */
final class EmulatedDevice implements CudaDevice {
    private final GemmPath gemmPath;
    private final int threads;

    /**
     * @param strict abort launches whose shuffles read inactive warp lanes
     */
    EmulatedDevice(GemmPath gemmPath, boolean strict) {
        if (!EmulatorNative.loadError().isEmpty()) {
            throw new IllegalStateException(EmulatorNative.loadError());
        }
        this.gemmPath = gemmPath;
        EmulatorNative.setStrict(strict);
        EmulatorNative.setChecks(EmulatorChecks.configured().bits());
        this.threads = EmulatorNative.hostThreads();
    }

    @Override
    public String description() {
        return "CUDA host emulation (" + threads + " host threads, " + (gemmPath == GemmPath.BLAS ? "host SGEMM" : "tiled GEMM kernels")
                + EmulatorChecks.configured().description() + ")";
    }

    @Override
    public GemmPath gemmPath() {
        return gemmPath;
    }

    @Override
    public int concurrentBlocks() {
        return 2 * threads;
    }

    /** The emulated device's memory is the host's. */
    @Override
    public long freeBytes() {
        return HostMemory.machineAvailable();
    }

    @Override
    public long allocate(long bytes) {
        try {
            return EmulatorNative.allocate(bytes);
        } catch (IllegalStateException e) {
            throw new DeviceMemoryException(bytes, freeBytes());
        }
    }

    @Override
    public void free(long pointer) {
        EmulatorNative.release(pointer);
    }

    @Override
    public void zero(long pointer, long bytes) {
        EmulatorNative.fill(pointer, 0, bytes);
    }

    @Override
    public void copy(long dst, long src, long bytes) {
        EmulatorNative.copy(dst, src, bytes);
    }

    @Override
    public void put(long dst, float[] src, int offset, int count) {
        EmulatorNative.putFloat(dst, src, offset, count);
    }

    @Override
    public void put(long dst, double[] src, int offset, int count) {
        EmulatorNative.putDouble(dst, src, offset, count);
    }

    @Override
    public void put(long dst, int[] src, int offset, int count) {
        EmulatorNative.putInt(dst, src, offset, count);
    }

    @Override
    public void get(long src, float[] dst, int offset, int count) {
        EmulatorNative.getFloat(src, dst, offset, count);
    }

    @Override
    public void get(long src, double[] dst, int offset, int count) {
        EmulatorNative.getDouble(src, dst, offset, count);
    }

    @Override
    public void get(long src, int[] dst, int offset, int count) {
        EmulatorNative.getInt(src, dst, offset, count);
    }

    @Override
    public void get(long src, long[] dst, int offset, int count) {
        EmulatorNative.getLong(src, dst, offset, count);
    }

    @Override
    public void launch(String name, int gridX, int gridY, int blockX, int blockY, int sharedBytes, KernelArgs args) {
        Launch.checkShape(name, gridX, gridY, blockX, blockY, sharedBytes);
        EmulatorNative.launch(name, args.kinds(), args.slots(), gridX, gridY, 1, blockX, blockY, 1, sharedBytes);
    }

    @Override
    public void sgemm(boolean transA, boolean transB, int m, int n, int k, float alpha, long a, int lda, long b, int ldb,
                      float beta, long c, int ldc) {
        EmulatorNative.sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }

    /** Launches return when their blocks have run: nothing is queued. */
    @Override
    public void synchronize() {
    }

    /** Nothing to release: buffers are freed by their owners, and the library stays loaded. */
    @Override
    public void close() {
    }
}
