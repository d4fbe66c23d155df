package org.logz.cuda;

/** Launcher of rbm_marginal.cu: one thread per chain (grid-stride) for the sweeps and sums, one per unit for base draws. */
final class MarginalRbmKernels {
    private final CudaDevice device;

    MarginalRbmKernels(CudaDevice device) {
        this.device = device;
    }

    private void run(String kernel, long threads, KernelArgs args) {
        device.launch(kernel, Launch.grid(device, threads), 1, Launch.BLOCK, 1, 0, args);
    }

    /** Row r draws from chain {@code first + r}'s streams, here and in {@link #anneal} and {@link #transition}. */
    void base(long h, long rows, int hidden, long seed, int step, long first) {
        run("logz_rbm_marginal_base", rows * hidden, KernelArgs.of().ptr(h).i64(rows).i32(hidden).key(seed).i32(step)
                .i64(first));
    }

    void logDensity(long h, long rows, int n, int hidden, long params, long tables, long g, long s, double beta, long out) {
        run("logz_rbm_marginal_log_density", rows, KernelArgs.of().ptr(h).i64(rows).i32(n).i32(hidden).ptr(params)
                .ptr(tables).ptr(g).ptr(s).f64(beta).ptr(out));
    }

    void anneal(long h, long rows, int n, int hidden, int span, long params, long tables, double from, double to,
                long logW, int transitions, long g, long s, long seed, int step, long first) {
        run("logz_rbm_marginal_anneal", rows, KernelArgs.of().ptr(h).i64(rows).i32(n).i32(hidden).i32(span)
                .ptr(params).ptr(tables).f64(from).f64(to).ptr(logW).i32(transitions).ptr(g).ptr(s).key(seed).i32(step)
                .i64(first));
    }

    /** {@code betas} is a device vector of one β per row, or 0 for {@code beta} everywhere. */
    void transition(long h, long rows, int n, int hidden, int span, long params, long tables, long betas, double beta,
                    int transitions, long g, long s, long seed, int step, long first) {
        run("logz_rbm_marginal_transition", rows, KernelArgs.of().ptr(h).i64(rows).i32(n).i32(hidden).i32(span)
                .ptr(params).ptr(tables).ptr(betas).f64(beta).i32(transitions).ptr(g).ptr(s).key(seed).i32(step)
                .i64(first));
    }

    void levels(long h, long rows, int n, int hidden, long params, long tables, long g, long s, long levelBetas,
                int levels, long logF, long slope) {
        run("logz_rbm_marginal_levels", rows, KernelArgs.of().ptr(h).i64(rows).i32(n).i32(hidden).ptr(params)
                .ptr(tables).ptr(g).ptr(s).ptr(levelBetas).i32(levels).ptr(logF).ptr(slope));
    }
}
