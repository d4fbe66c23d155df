package org.logz.cuda;

/** Launcher of glmm_likelihood.cu: one thread per (particle, group) pair, then one per particle; grid-stride. */
final class GlmmKernels {
    private final CudaDevice device;

    GlmmKernels(CudaDevice device) {
        this.device = device;
    }

    /** {@code groupLog[r·m + i]} for rows particles of θ (cols floats per row), then {@code out[r]} their sums. */
    void estimate(long theta, long rows, int cols, int p, int m, long x, long y, long offsets, int inner, boolean laplace,
                  long seed, int step, long groupLog, long out) {
        device.launch("logz_glmm_groups", Launch.grid(device, rows * m), 1, Launch.BLOCK, 1, 0, KernelArgs.of().ptr(theta)
                .i64(rows).i32(cols).i32(p).i32(m).ptr(x).ptr(y).ptr(offsets).i32(inner).i32(laplace ? 1 : 0).key(seed)
                .i32(step).ptr(groupLog));
        device.launch("logz_glmm_sum", Launch.grid(device, rows), 1, Launch.BLOCK, 1, 0, KernelArgs.of().ptr(groupLog)
                .i64(rows).i32(m).ptr(out));
    }
}
