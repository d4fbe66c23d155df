package org.logz.cuda;

/**
 * Launcher of gp_ellipse.cu: blocks of {@link Launch#BLOCK}; a thread per chain for the base draw and the log density,
 * a warp per chain for annealing and transitions, a warp per 32 chains for the levels.
 */
final class GpcEllipseKernels {
    private final CudaDevice device;

    GpcEllipseKernels(CudaDevice device) {
        this.device = device;
    }

    private void run(String kernel, long rows, KernelArgs args) {
        device.launch(kernel, Launch.grid(device, rows), 1, Launch.BLOCK, 1, 0, args);
    }

    private void runWarps(String kernel, long rows, KernelArgs args) {
        device.launch(kernel, Launch.warpGrid(device, rows), 1, Launch.BLOCK, 1, 0, args);
    }

    /** Row r draws from chain {@code first + r}'s streams, here and in {@link #anneal} and {@link #transition}. */
    void base(long x, long rows, int n, int rank, long params, long columns, long nu, long seed, int step, long first) {
        run("logz_gpc_ellipse_base", rows, KernelArgs.of().ptr(x).i64(rows).i32(n).i32(rank).ptr(params).ptr(columns)
                .ptr(nu).key(seed).i32(step).i64(first));
    }

    void logDensity(long x, long rows, int n, long params, double constant, double beta, long out) {
        run("logz_gpc_ellipse_log_density", rows, KernelArgs.of().ptr(x).i64(rows).i32(n).ptr(params).f64(constant)
                .f64(beta).ptr(out));
    }

    void anneal(long x, long rows, int n, int rank, long params, long columns, double constant, double from, double to,
                long logW, int transitions, long nu, long seed, int step, long first) {
        runWarps("logz_gpc_ellipse_anneal", rows, KernelArgs.of().ptr(x).i64(rows).i32(n).i32(rank).ptr(params).ptr(columns)
                .f64(constant).f64(from).f64(to).ptr(logW).i32(transitions).ptr(nu).key(seed).i32(step).i64(first));
    }

    /** {@code betas} is a device vector of one β per row, or 0 for {@code beta} everywhere. */
    void transition(long x, long rows, int n, int rank, long params, long columns, double constant, long betas,
                    double beta, int transitions, long nu, long seed, int step, long first) {
        runWarps("logz_gpc_ellipse_transition", rows, KernelArgs.of().ptr(x).i64(rows).i32(n).i32(rank).ptr(params)
                .ptr(columns).f64(constant).ptr(betas).f64(beta).i32(transitions).ptr(nu).key(seed).i32(step)
                .i64(first));
    }

    void levels(long x, long rows, int n, long params, double constant, long levelBetas, int levels, long logF,
                long slope) {
        run("logz_gpc_ellipse_levels", rows, KernelArgs.of().ptr(x).i64(rows).i32(n).ptr(params).f64(constant)
                .ptr(levelBetas).i32(levels).ptr(logF).ptr(slope));
    }
}
