package org.logz.cuda;

import org.logz.model.gmm.GaussianMixture;

/** Launcher of gmm_hmc.cu: one thread per chain, grid-stride. */
final class GmmHmcKernels {
    private final CudaDevice device;

    GmmHmcKernels(CudaDevice device) {
        this.device = device;
    }

    private void run(String kernel, long rows, KernelArgs args) {
        device.launch(kernel, Launch.grid(device, rows), 1, Launch.BLOCK, 1, 0, args);
    }

    /** The mixture's parameters as gmm_hmc.cu's LOGZ_GMM_ARGS. */
    private static KernelArgs model(KernelArgs args, GaussianMixture m) {
        return args.i32(m.dimension()).f64(m.meanCoordinate()).f64(m.sigma0()).f64(m.sigma1()).f64(m.sigma2())
                .f64(Math.log(m.weight())).f64(Math.log(1 - m.weight()));
    }

    /** Row r draws from chain {@code first + r}'s streams, here and in {@link #anneal} and {@link #transition}. */
    void base(long x, long rows, GaussianMixture m, long seed, int step, long first) {
        run("logz_gmm_base", rows, KernelArgs.of().ptr(x).i64(rows).i32(m.dimension()).f64(m.sigma0()).key(seed).i32(step)
                .i64(first));
    }

    void logDensity(long x, long rows, GaussianMixture m, double beta, long out) {
        run("logz_gmm_log_density", rows, model(KernelArgs.of().ptr(x).i64(rows), m).f64(beta).ptr(out));
    }

    void levels(long x, long rows, GaussianMixture m, long levelBetas, int levels, long logF, long slope) {
        run("logz_gmm_levels", rows, model(KernelArgs.of().ptr(x).i64(rows), m).ptr(levelBetas).i32(levels).ptr(logF)
                .ptr(slope));
    }

    void anneal(long x, long rows, GaussianMixture m, double from, double to, long logW, int transitions, long eps,
                long scratch, long accepted, long seed, int step, long first) {
        run("logz_gmm_anneal", rows, model(KernelArgs.of().ptr(x).i64(rows), m).f64(from).f64(to).ptr(logW)
                .i32(transitions).ptr(eps).i32(m.hmc().leapfrog()).i32(m.hmc().jitter() ? 1 : 0).ptr(scratch)
                .ptr(accepted).key(seed).i32(step).i64(first));
    }

    /** {@code betas} 0 for the one {@code beta} of every row. */
    void transition(long x, long rows, GaussianMixture m, long betas, double beta, int transitions, long eps,
                    long scratch, long accepted, long seed, int step, long first) {
        run("logz_gmm_transition", rows, model(KernelArgs.of().ptr(x).i64(rows), m).ptr(betas).f64(beta)
                .i32(transitions).ptr(eps).i32(m.hmc().leapfrog()).i32(m.hmc().jitter() ? 1 : 0).ptr(scratch)
                .ptr(accepted).key(seed).i32(step).i64(first));
    }
}
