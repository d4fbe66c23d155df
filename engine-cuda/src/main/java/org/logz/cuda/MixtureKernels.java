package org.logz.cuda;

/** Launcher of mixture.cu: one thread per θ-particle, grid-stride. */
final class MixtureKernels {
    private final CudaDevice device;

    MixtureKernels(CudaDevice device) {
        this.device = device;
    }

    /** {@code out[r]}, the point likelihoods of entries [from, to) of {@code points}, for rows particles of θ. */
    void points(long theta, long rows, int cols, long y, long logWeights, int components, int d, double sigma,
                double norm, long points, int from, int to, long out) {
        device.launch("logz_mixture_points", Launch.grid(device, rows), 1, Launch.BLOCK, 1, 0, KernelArgs.of()
                .ptr(theta).i64(rows).i32(cols).ptr(y).ptr(logWeights).i32(components).i32(d).f64(sigma).f64(norm)
                .ptr(points).i32(from).i32(to).ptr(out));
    }
}
