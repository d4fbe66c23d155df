package org.logz.cuda;

/**
 * What the CUDA backend needs from a device: memory, copies, kernel launches by name and SGEMM.
 * Two implementations: {@link JCudaDevice} (a GPU through the JCuda driver API and JCublas) and
 * {@link EmulatedDevice} (the host emulation). Pointers are device addresses as longs; every call is
 * synchronous as seen from the host. Closing frees everything the device still holds.
 */
interface CudaDevice extends AutoCloseable {

    /** How matrix products are computed. */
    enum GemmPath {
        /** cuBLAS SGEMM (in the emulator: a host SGEMM with cuBLAS's contract), then a sampling kernel. */
        BLAS,
        /** The tiled GEMM kernels of rbm_gibbs.cu, sampling fused into their epilogue. */
        TILED
    }

    String description();

    GemmPath gemmPath();

    /** Blocks worth launching at once: more leaves the device no faster, fewer leaves it idle. */
    int concurrentBlocks();

    /** Device memory still free for allocations, in bytes. */
    long freeBytes();

    /**
     * Device memory of {@code bytes} bytes, uninitialized.
     *
     * @throws DeviceMemoryException when the device cannot hold it
     */
    long allocate(long bytes);

    void free(long pointer);

    void zero(long pointer, long bytes);

    /** Device-to-device copy of non-overlapping ranges. */
    void copy(long dst, long src, long bytes);

    void put(long dst, float[] src, int offset, int count);

    void put(long dst, double[] src, int offset, int count);

    void put(long dst, int[] src, int offset, int count);

    void get(long src, float[] dst, int offset, int count);

    void get(long src, double[] dst, int offset, int count);

    void get(long src, int[] dst, int offset, int count);

    void get(long src, long[] dst, int offset, int count);

    /** Launches kernel {@code name} on a grid of {@code gridX × gridY} blocks of {@code blockX × blockY} threads. */
    void launch(String name, int gridX, int gridY, int blockX, int blockY, int sharedBytes, KernelArgs args);

    /** cublasSgemm: {@code C = alpha op(A) op(B) + beta C}, column-major. */
    void sgemm(boolean transA, boolean transB, int m, int n, int k, float alpha, long a, int lda, long b, int ldb,
               float beta, long c, int ldc);

    /** Waits for queued kernels and copies to finish. */
    void synchronize();

    @Override
    void close();
}
