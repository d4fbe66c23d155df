package org.logz.cuda;

/** Launcher of ising.cu: one thread per site (two launches per sweep), one warp per row for sums. */
final class IsingKernels {
    private final CudaDevice device;

    IsingKernels(CudaDevice device) {
        this.device = device;
    }

    /** Row r draws from chain {@code first + r}'s streams, here and in {@link #sweep}. */
    void base(long x, long rows, int sites, long seed, int step, long first) {
        device.launch("logz_ising_base", Launch.grid(device, rows * sites), 1, Launch.BLOCK, 1, 0,
                KernelArgs.of().ptr(x).i64(rows).i32(sites).key(seed).i32(step).i64(first));
    }

    /** One sweep at Philox step {@code step}: both colours, in reverse order when {@code reversed}. */
    void sweep(long x, int l, long rows, float beta, long betas, boolean reversed, long seed, int step, long first) {
        for (int pass = 0; pass < 2; pass++) {
            int colour = reversed ? 1 - pass : pass;
            device.launch("logz_ising_colour", Launch.grid(device, rows * l * l / 2), 1, Launch.BLOCK, 1, 0,
                    KernelArgs.of().ptr(x).i32(l).i64(rows).f32(beta).ptr(betas).i32(colour).key(seed).i32(step)
                            .i64(first));
        }
    }

    void logDensity(long x, int l, long rows, double beta, long out) {
        device.launch("logz_ising_log_density", Launch.warpGrid(device, rows), 1, Launch.BLOCK, 1, 0,
                KernelArgs.of().ptr(x).i32(l).i64(rows).f64(beta).ptr(out));
    }

    void annealWeights(long x, int l, long rows, double from, double to, long logW) {
        device.launch("logz_ising_anneal_weights", Launch.warpGrid(device, rows), 1, Launch.BLOCK, 1, 0,
                KernelArgs.of().ptr(x).i32(l).i64(rows).f64(from).f64(to).ptr(logW));
    }
}
