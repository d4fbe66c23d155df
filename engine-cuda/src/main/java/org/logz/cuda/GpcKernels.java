package org.logz.cuda;

/**
 * Launcher of gp_slice_gibbs.cu: blocks of {@link Launch#BLOCK}, grid-stride (the smooth and augment steps stage a
 * warp's rows in shared memory, so they need whole warps).
 */
final class GpcKernels {
    private final CudaDevice device;

    GpcKernels(CudaDevice device) {
        this.device = device;
    }

    private void run(String kernel, long rows, KernelArgs args) {
        device.launch(kernel, Launch.grid(device, rows), 1, Launch.BLOCK, 1, 0, args);
    }

    /** {@code v}: scratch of {@code rows × active} doubles. */
    void move(long z, long rows, int n, int active, long s, long orders, long labels, int sweeps, long v, long seed,
              int step, long first) {
        run("logz_gpc_move", rows, KernelArgs.of().ptr(z).i64(rows).i32(n).i32(active).ptr(s).ptr(orders).ptr(labels)
                .i32(sweeps).ptr(v).key(seed).i32(step).i64(first));
    }

    void smooth(long z, long rows, int n, int variable, long s, int y, long logW) {
        run("logz_gpc_smooth", rows, KernelArgs.of().ptr(z).i64(rows).i32(n).i32(variable).ptr(s).i32(y).ptr(logW));
    }

    void augment(long z, long rows, int n, int variable, long s, int y, long seed, int step, long first) {
        run("logz_gpc_augment", rows, KernelArgs.of().ptr(z).i64(rows).i32(n).i32(variable).ptr(s).i32(y).key(seed)
                .i32(step).i64(first));
    }
}
