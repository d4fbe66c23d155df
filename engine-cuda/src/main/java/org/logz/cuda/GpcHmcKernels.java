package org.logz.cuda;

import org.logz.model.gpc.WhitenedGpc;

/** Launcher of gpc_hmc.cu: one thread per chain, grid-stride. */
final class GpcHmcKernels {
    private static final double LOG_TWO_PI = Math.log(2 * Math.PI);
    private final CudaDevice device;

    GpcHmcKernels(CudaDevice device) {
        this.device = device;
    }

    private void run(String kernel, long rows, KernelArgs args) {
        device.launch(kernel, Launch.grid(device, rows), 1, Launch.BLOCK, 1, 0, args);
    }

    /** The path's parameters as gpc_hmc.cu's LOGZ_GPCW_ARGS. */
    private static KernelArgs path(KernelArgs args, WhitenedGpc m, GpcDeviceParams params) {
        return args.i32(m.tempered().size()).i32(m.dimension()).ptr(params.p()).ptr(params.columns())
                .f64(m.tempered().constant()).f64(LOG_TWO_PI);
    }

    /** Row r draws from chain {@code first + r}'s streams, here and in {@link #anneal} and {@link #transition}. */
    void base(long xi, long rows, WhitenedGpc m, long seed, int step, long first) {
        run("logz_gpcw_base", rows, KernelArgs.of().ptr(xi).i64(rows).i32(m.dimension()).key(seed).i32(step).i64(first));
    }

    void logDensity(long xi, long rows, WhitenedGpc m, GpcDeviceParams params, double beta, long scratch, long out) {
        run("logz_gpcw_log_density", rows, path(KernelArgs.of().ptr(xi).i64(rows), m, params).f64(beta).ptr(scratch)
                .ptr(out));
    }

    void levels(long xi, long rows, WhitenedGpc m, GpcDeviceParams params, long levelBetas, int levels, long scratch,
                long logF, long slope) {
        run("logz_gpcw_levels", rows, path(KernelArgs.of().ptr(xi).i64(rows), m, params).ptr(levelBetas).i32(levels)
                .ptr(scratch).ptr(logF).ptr(slope));
    }

    void anneal(long xi, long rows, WhitenedGpc m, GpcDeviceParams params, double from, double to, long logW,
                int transitions, long eps, long scratch, long accepted, long seed, int step, long first) {
        run("logz_gpcw_anneal", rows, path(KernelArgs.of().ptr(xi).i64(rows), m, params).f64(from).f64(to).ptr(logW)
                .i32(transitions).ptr(eps).i32(m.hmc().leapfrog()).i32(m.hmc().jitter() ? 1 : 0).ptr(scratch)
                .ptr(accepted).key(seed).i32(step).i64(first));
    }

    /** {@code betas} 0 for the one {@code beta} of every row. */
    void transition(long xi, long rows, WhitenedGpc m, GpcDeviceParams params, long betas, double beta, int transitions,
                    long eps, long scratch, long accepted, long seed, int step, long first) {
        run("logz_gpcw_transition", rows, path(KernelArgs.of().ptr(xi).i64(rows), m, params).ptr(betas).f64(beta)
                .i32(transitions).ptr(eps).i32(m.hmc().leapfrog()).i32(m.hmc().jitter() ? 1 : 0).ptr(scratch)
                .ptr(accepted).key(seed).i32(step).i64(first));
    }
}
