package org.logz.cuda;

/**
 * Launcher of rbm_gibbs.cu: the sampling kernels (one thread per four units, grid-stride) and the
 * tiled GEMM kernels (16×16 threads per block, each block a 16-row × 64-column tile of the output).
 * The GEMM grid puts row tiles on {@code gridDim.y}, which CUDA caps at 65,535: products of more rows
 * run as several launches of at most {@link #CHUNK_ROWS} rows each (offset pointers; the sampling
 * kernel's absolute row moves with them, so the draws are those of one launch).
 */
final class GibbsKernels {
    private static final int TILE_ROWS = 16;
    private static final int TILE_COLS = 64;
    /** Rows per GEMM launch: the most tiles gridDim.y allows. */
    static final int CHUNK_ROWS = Launch.MAX_GRID_Y * TILE_ROWS;

    private final CudaDevice device;

    GibbsKernels(CudaDevice device) {
        this.device = device;
    }

    private void run(String kernel, long work, KernelArgs args) {
        device.launch(kernel, Launch.grid(device, work), 1, Launch.BLOCK, 1, 0, args);
    }

    void sampleBase(long x, long rows, int n, long prob, long seed, int step, long first) {
        run("logz_sample_base", rows * ((n + 3) / 4), KernelArgs.of().ptr(x).i64(rows).i32(n).ptr(prob).key(seed).i32(step)
                .i64(first));
    }

    /**
     * @param bias  0 when the field already holds the hidden biases
     * @param betas per-row inverse temperatures, or 0 to use {@code beta} for every row
     */
    void sampleHidden(long field, int hn, long rows, long bias, float beta, long betas, long h, long seed, int step,
                      long first) {
        run("logz_sample_hidden", rows * ((hn + 3) / 4), KernelArgs.of().ptr(field).i32(hn).i64(rows).ptr(bias).f32(beta)
                .ptr(betas).ptr(h).key(seed).i32(step).i64(first));
    }

    void sampleVisible(long v, int n, int active, long rows, long a, long a0, float beta, long betas, long x, long seed,
                       int step, long first) {
        run("logz_sample_visible", rows * ((active + 3) / 4), KernelArgs.of().ptr(v).i32(n).i32(active).i64(rows).ptr(a)
                .ptr(a0).f32(beta).ptr(betas).ptr(x).key(seed).i32(step).i64(first));
    }

    /** C (rows × cols, ldc) = A (rows × k) · op(B) + beta C, row-major; op(B) = Bᵀ when transB. */
    void gemm(int rows, int cols, int k, long a, int lda, long b, int ldb, boolean transB, float beta, long c, int ldc) {
        for (int r0 = 0; r0 < rows; r0 += CHUNK_ROWS) {
            int chunk = Math.min(CHUNK_ROWS, rows - r0);
            device.launch("logz_gemm", (cols + TILE_COLS - 1) / TILE_COLS, (chunk + TILE_ROWS - 1) / TILE_ROWS, TILE_ROWS,
                    TILE_ROWS, 0, KernelArgs.of().i32(chunk).i32(cols).i32(k).ptr(a + 4L * r0 * lda).i32(lda).ptr(b).i32(ldb)
                            .i32(transB ? 1 : 0).f32(beta).ptr(c + 4L * r0 * ldc).i32(ldc));
        }
    }

    /**
     * out = Bernoulli(σ(z)) with z = (offset ? (1-β) offset_c : 0) + β (bias_c + (A · op(B))_rc), units of
     * stream {@code tag}.
     */
    void gemmBernoulli(int rows, int cols, int k, long a, int lda, long b, int ldb, boolean transB, long bias, long offset,
                       float beta, long betas, long out, int ldo, long seed, int step, int tag, long first) {
        for (int r0 = 0; r0 < rows; r0 += CHUNK_ROWS) {
            int chunk = Math.min(CHUNK_ROWS, rows - r0);
            device.launch("logz_gemm_bernoulli", (cols + TILE_COLS - 1) / TILE_COLS, (chunk + TILE_ROWS - 1) / TILE_ROWS,
                    TILE_ROWS, TILE_ROWS, 0, KernelArgs.of().i32(chunk).i32(cols).i32(k).ptr(a + 4L * r0 * lda).i32(lda).ptr(b)
                            .i32(ldb).i32(transB ? 1 : 0).ptr(bias).ptr(offset).f32(beta).ptr(betas == 0 ? 0 : betas + 8L * r0)
                            .ptr(out + 4L * r0 * ldo).i32(ldo).key(seed).i32(step).i32(tag).i64(first + r0));
        }
    }
}
