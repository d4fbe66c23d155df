package org.logz.cuda;

/**
 * Launcher of rbm_weights.cu: one warp per particle, {@link Launch#BLOCK} threads per block, grid-stride.
 */
final class WeightKernels {
    private final CudaDevice device;

    WeightKernels(CudaDevice device) {
        this.device = device;
    }

    private void run(String kernel, long rows, KernelArgs args) {
        device.launch(kernel, Launch.warpGrid(device, rows), 1, Launch.BLOCK, 1, 0, args);
    }

    void anneal(long u, long x, int n, int hn, long rows, long b, long slope, double from, double to, long logW,
                boolean transition, long h, long seed, int step, long first) {
        run("logz_anneal_weights", rows, KernelArgs.of().ptr(u).ptr(x).i32(n).i32(hn).i64(rows).ptr(b).ptr(slope).f64(from)
                .f64(to).ptr(logW).i32(transition ? 1 : 0).ptr(h).key(seed).i32(step).i64(first));
    }

    void logDensity(long u, long x, int n, int hn, long rows, long b, long coefficient, double beta, long out) {
        run("logz_log_density", rows, KernelArgs.of().ptr(u).ptr(x).i32(n).i32(hn).i64(rows).ptr(b).ptr(coefficient)
                .f64(beta).ptr(out));
    }

    void levels(long u, long x, int n, int hn, long rows, long a, long a0, long b, long levelBetas, int levels, long logF,
                long slope) {
        device.launch("logz_levels", Launch.warpGrid(device, rows), 1, Launch.BLOCK, 1, 0, KernelArgs.of().ptr(u)
                .ptr(x).i32(n).i32(hn).i64(rows).ptr(a).ptr(a0).ptr(b).ptr(levelBetas).i32(levels).ptr(logF).ptr(slope));
    }

    void smooth(long g, int hn, long rows, long w, float a, long logW) {
        run("logz_smooth", rows, KernelArgs.of().ptr(g).i32(hn).i64(rows).ptr(w).f32(a).ptr(logW));
    }

    void augment(long x, long g, int n, int hn, long rows, int unit, long w, float a, long seed, int step, long first) {
        run("logz_augment", rows, KernelArgs.of().ptr(x).ptr(g).i32(n).i32(hn).i64(rows).i32(unit).ptr(w).f32(a).key(seed)
                .i32(step).i64(first));
    }
}
