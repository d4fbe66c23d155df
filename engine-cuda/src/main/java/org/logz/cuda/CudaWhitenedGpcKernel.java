package org.logz.cuda;

import org.logz.model.gpc.WhitenedGpc;

/**
 * GP classification by HMC in whitened coordinates on the device (gpc_hmc.cu): the path's parameters and G uploaded
 * once ({@link GpcDeviceParams}); scratch of 4·rank + n doubles per chain (the leapfrog's and x = μ + G ξ).
 */
final class CudaWhitenedGpcKernel extends CudaHmcKernel {
    private final GpcHmcKernels kernels;
    private final WhitenedGpc model;
    private final GpcDeviceParams params;

    CudaWhitenedGpcKernel(CudaBackend backend, WhitenedGpc model) {
        super(backend, model);
        this.kernels = backend.launcher(GpcHmcKernels.class, GpcHmcKernels::new);
        this.model = model;
        this.params = new GpcDeviceParams(backend, model.tempered());
    }

    @Override
    protected long scratchPerChain() {
        return 4L * model.dimension() + model.tempered().size();
    }

    @Override
    protected void launchBase(long x, int count, long seed, int step, int first) {
        kernels.base(x, count, model, seed, step, first);
    }

    @Override
    protected void launchLogDensity(long x, int count, double beta, long scratch, long out) {
        kernels.logDensity(x, count, model, params, beta, scratch, out);
    }

    @Override
    protected void launchLevels(long x, int count, long levelBetas, int levels, long scratch, long logF, long slope) {
        kernels.levels(x, count, model, params, levelBetas, levels, scratch, logF, slope);
    }

    @Override
    protected void launchAnneal(long x, int count, double from, double to, long logW, int transitions, long eps,
                                long scratch, long accepted, long seed, int step, int first) {
        kernels.anneal(x, count, model, params, from, to, logW, transitions, eps, scratch, accepted, seed, step, first);
    }

    @Override
    protected void launchTransition(long x, int count, long betas, double beta, int transitions, long eps, long scratch,
                                    long accepted, long seed, int step, int first) {
        kernels.transition(x, count, model, params, betas, beta, transitions, eps, scratch, accepted, seed, step, first);
    }

    @Override
    protected void release() {
        params.close();
    }
}
