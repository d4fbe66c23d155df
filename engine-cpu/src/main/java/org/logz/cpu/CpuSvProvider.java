package org.logz.cpu;

import org.logz.kernel.KernelBinding;
import org.logz.model.latent.StochasticVolatility;

/** The stochastic volatility model's particle-filter likelihood ({@link CpuLikelihoodKernel}) on the {@code cpu} backend. */
public final class CpuSvProvider extends KernelBinding<CpuBackend, StochasticVolatility> {
    public CpuSvProvider() {
        super(CpuBackend.class, StochasticVolatility.class, null, null, CpuLikelihoodKernel::stochasticVolatility);
    }
}
