package org.logz.cuda;

import org.logz.model.toy.GaussianToy;

/** Launcher of gaussian_toy.cu: one thread per particle, grid-stride. */
final class GaussianToyKernels {
    private final CudaDevice device;

    GaussianToyKernels(CudaDevice device) {
        this.device = device;
    }

    private void run(String kernel, long rows, KernelArgs args) {
        device.launch(kernel, Launch.grid(device, rows), 1, Launch.BLOCK, 1, 0, args);
    }

    /** Row r draws from chain {@code first + r}'s streams, here and in {@link #anneal} and {@link #move}. */
    void base(long x, long rows, GaussianToy m, long seed, int step, long first) {
        run("logz_toy_base", rows, KernelArgs.of().ptr(x).i64(rows).f64(m.mu0()).f64(m.sigma0()).key(seed).i32(step)
                .i64(first));
    }

    void anneal(long x, long rows, GaussianToy m, double from, double to, long logW, boolean transition, long seed,
                int step, long first) {
        run("logz_toy_anneal", rows, KernelArgs.of().ptr(x).i64(rows).f64(m.mu0()).f64(m.sigma0()).f64(m.mu1())
                .f64(m.sigma1()).f64(from).f64(to).ptr(logW).i32(transition ? 1 : 0).f64(m.tau(to)).f64(m.mean(to))
                .f64(m.sigma(to)).key(seed).i32(step).i64(first));
    }

    void move(long x, long rows, GaussianToy m, double beta, long seed, int step, long first) {
        run("logz_toy_move", rows, KernelArgs.of().ptr(x).i64(rows).f64(m.tau(beta)).f64(m.mean(beta)).f64(m.sigma(beta))
                .key(seed).i32(step).i64(first));
    }

    void logDensity(long x, long rows, GaussianToy m, double beta, long out) {
        run("logz_toy_log_density_kernel", rows, KernelArgs.of().ptr(x).i64(rows).f64(m.mu0()).f64(m.sigma0()).f64(m.mu1())
                .f64(m.sigma1()).f64(beta).ptr(out));
    }

    void levels(long x, long rows, GaussianToy m, long levelBetas, int levels, long logF, long slope) {
        run("logz_toy_levels", rows, KernelArgs.of().ptr(x).i64(rows).f64(m.mu0()).f64(m.sigma0()).f64(m.mu1())
                .f64(m.sigma1()).ptr(levelBetas).i32(levels).ptr(logF).ptr(slope));
    }
}
