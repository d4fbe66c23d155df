package org.logz.cuda;

import org.logz.model.gmm.GaussianMixture;

/** The Gaussian mixture by HMC on the device (gmm_hmc.cu): 4·d doubles of leapfrog scratch per chain. */
final class CudaGmmKernel extends CudaHmcKernel {
    private final GmmHmcKernels kernels;
    private final GaussianMixture model;

    CudaGmmKernel(CudaBackend backend, GaussianMixture model) {
        super(backend, model);
        this.kernels = backend.launcher(GmmHmcKernels.class, GmmHmcKernels::new);
        this.model = model;
    }

    @Override
    protected long scratchPerChain() {
        return 4L * model.dimension();
    }

    @Override
    protected void launchBase(long x, int count, long seed, int step, int first) {
        kernels.base(x, count, model, seed, step, first);
    }

    @Override
    protected void launchLogDensity(long x, int count, double beta, long scratch, long out) {
        kernels.logDensity(x, count, model, beta, out);
    }

    @Override
    protected void launchLevels(long x, int count, long levelBetas, int levels, long scratch, long logF, long slope) {
        kernels.levels(x, count, model, levelBetas, levels, logF, slope);
    }

    @Override
    protected void launchAnneal(long x, int count, double from, double to, long logW, int transitions, long eps,
                                long scratch, long accepted, long seed, int step, int first) {
        kernels.anneal(x, count, model, from, to, logW, transitions, eps, scratch, accepted, seed, step, first);
    }

    @Override
    protected void launchTransition(long x, int count, long betas, double beta, int transitions, long eps, long scratch,
                                    long accepted, long seed, int step, int first) {
        kernels.transition(x, count, model, betas, beta, transitions, eps, scratch, accepted, seed, step, first);
    }
}
