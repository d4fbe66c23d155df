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

    /** {@link #weightSummary} of lw + s·delta. */
    void trialSummary(long lw, long delta, double s, long n, long out) {
        device.launch("logz_trial_summary", 1, 1, Launch.BLOCK, 1, 0, KernelArgs.of().ptr(lw).ptr(delta).f64(s).i64(n)
                .ptr(out));
    }

    /** out[0..3] = weighted mean and variance of v[offset + k·stride], count of NaN/+inf log weights, max log weight. */
    void weightedMoments(long lw, long v, long offset, long stride, long n, long out) {
        device.launch("logz_weighted_moments", 1, 1, Launch.BLOCK, 1, 0, KernelArgs.of().ptr(lw).ptr(v).i64(offset)
                .i64(stride).i64(n).ptr(out));
    }
}
