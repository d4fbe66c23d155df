package org.logz.cuda;

/** Launcher of potts.cu: one thread per site of a colour class (two launches per sweep), one warp per row for sums. */
final class PottsKernels {
    /** potts.cu's move codes, PottsSteps' purposes. */
    static final int HEATBATH = 1;
    static final int METROPOLIS = 2;

    private final CudaDevice device;

    PottsKernels(CudaDevice device) {
        this.device = device;
    }

    /** Row r draws from chain {@code first + r}'s streams, here and in {@link #sweep}. */
    void base(long x, long rows, int sites, int colours, long seed, int step, long first) {
        device.launch("logz_potts_base", Launch.grid(device, rows * sites), 1, Launch.BLOCK, 1, 0,
                KernelArgs.of().ptr(x).i64(rows).i32(sites).i32(colours).key(seed).i32(step).i64(first));
    }

    /**
     * One sweep at Philox step {@code step}: both colour classes, in reverse order when {@code reversed}; β per row from
     * {@code betas} when nonzero, else {@code beta}.
     */
    void sweep(long x, int l, long rows, int colours, double coupling, double beta, long betas, int moves, boolean reversed,
               long seed, int step, long first) {
        for (int pass = 0; pass < 2; pass++) {
            int colour = reversed ? 1 - pass : pass;
            device.launch("logz_potts_colour", Launch.grid(device, rows * l * l / 2), 1, Launch.BLOCK, 1, 0,
                    KernelArgs.of().ptr(x).i32(l).i64(rows).i32(colours).f64(coupling).f64(beta).ptr(betas).i32(colour)
                            .i32(moves).key(seed).i32(step).i64(first));
        }
    }

    /** {@code out[r] = β (J S(x_r))}. */
    void logDensity(long x, int l, long rows, double beta, double coupling, long out) {
        device.launch("logz_potts_log_density", Launch.warpGrid(device, rows), 1, Launch.BLOCK, 1, 0,
                KernelArgs.of().ptr(x).i32(l).i64(rows).f64(beta).f64(coupling).ptr(out));
    }

    /** {@code logW[r] += stepJ · S(x_r)}, stepJ = (to - from) J. */
    void annealWeights(long x, int l, long rows, double stepJ, long logW) {
        device.launch("logz_potts_anneal_weights", Launch.warpGrid(device, rows), 1, Launch.BLOCK, 1, 0,
                KernelArgs.of().ptr(x).i32(l).i64(rows).f64(stepJ).ptr(logW));
    }
}
