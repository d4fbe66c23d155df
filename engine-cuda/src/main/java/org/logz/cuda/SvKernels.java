package org.logz.cuda;

/** Launcher of sv_filter.cu: one thread per θ-particle, grid-stride. */
final class SvKernels {
    private final CudaDevice device;

    SvKernels(CudaDevice device) {
        this.device = device;
    }

    /** {@code out[r]} for rows particles of θ (cols floats per row); h, next and logWeight are rows × inner scratch. */
    void filter(long theta, long rows, int cols, long y, int length, int inner, long seed, int step, long h, long next,
                long logWeight, long out) {
        device.launch("logz_sv_filter", Launch.grid(device, rows), 1, Launch.BLOCK, 1, 0, KernelArgs.of().ptr(theta)
                .i64(rows).i32(cols).ptr(y).i32(length).i32(inner).key(seed).i32(step).ptr(h).ptr(next).ptr(logWeight)
                .ptr(out));
    }
}
