package org.logz.cuda;

/**
 * Launcher of gp_ellipse.cu: blocks of {@link Launch#BLOCK}; a thread per chain for the base draw and the log density,
 * a warp per chain for a transition's draws and slice step, a warp per 32 chains for the levels.
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

    /** Row r draws from chain {@code first + r}'s streams, here and in {@link #step}. */
    void base(long x, long rows, int n, int rank, long params, long columns, long nu, long seed, int step, long first) {
        run("logz_gpc_ellipse_base", rows, KernelArgs.of().ptr(x).i64(rows).i32(n).i32(rank).ptr(params).ptr(columns)
                .ptr(nu).key(seed).i32(step).i64(first));
    }

    void logDensity(long x, long rows, int n, long params, double constant, double beta, long out) {
        run("logz_gpc_ellipse_log_density", rows, KernelArgs.of().ptr(x).i64(rows).i32(n).ptr(params).f64(constant)
                .f64(beta).ptr(out));
    }

    /**
     * One transition's auxiliary draws ν (row r's n doubles at {@code nu + 8·r·n}), then, where {@code move}, the
     * slice step; with a {@code logW} (else 0) the annealing weight {@code (to - from) ℓ} first and the step at β = to,
     * else at {@code betas} (a device vector of one β per row, or 0 for {@code beta} everywhere). ℓ of each row is taken
     * from x where {@code fresh}, else from {@code ell} (a double per row), where the step leaves it.
     */
    void step(long x, long rows, int n, int rank, long params, long columns, double constant, double from, double to,
              long logW, long betas, double beta, boolean move, long nu, long ell, boolean fresh, long seed, int step,
              long first) {
        if (move) {
            runWarps("logz_gpc_ellipse_normals", rows, KernelArgs.of().ptr(nu).i64(rows).i32(n).i32(rank).ptr(columns)
                    .key(seed).i32(step).i64(first));
        }
        runWarps("logz_gpc_ellipse_slice", rows, KernelArgs.of().ptr(x).i64(rows).i32(n).ptr(params).f64(constant)
                .f64(from).f64(to).ptr(logW).ptr(betas).f64(beta).i32(move ? 1 : 0).ptr(nu).ptr(ell).i32(fresh ? 1 : 0)
                .key(seed).i32(step).i64(first));
    }

    void levels(long x, long rows, int n, long params, double constant, long levelBetas, int levels, long logF,
                long slope) {
        run("logz_gpc_ellipse_levels", rows, KernelArgs.of().ptr(x).i64(rows).i32(n).ptr(params).f64(constant)
                .ptr(levelBetas).i32(levels).ptr(logF).ptr(slope));
    }
}
