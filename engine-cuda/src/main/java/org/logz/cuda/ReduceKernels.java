package org.logz.cuda;

/** Launcher of reduce.cu: one block of {@link Launch#BLOCK} threads per reduction (fixed order). */
final class ReduceKernels {
    private final CudaDevice device;

    ReduceKernels(CudaDevice device) {
        this.device = device;
    }

    /** out[0..3] = max, Σ e^{lw-max}, Σ e^{2(lw-max)}, count of NaN/+inf over lw[0, n). */
    void weightSummary(long lw, long n, long out) {
        device.launch("logz_weight_summary", 1, 1, Launch.BLOCK, 1, 0, KernelArgs.of().ptr(lw).i64(n).ptr(out));
    }
}
