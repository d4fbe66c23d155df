package org.logz.cuda;

import org.logz.kernel.KernelBinding;
import org.logz.model.latent.StochasticVolatility;

/** The stochastic volatility model's particle filter (sv_filter.cu) on the {@code cuda} and {@code cuda-emulated} backends. */
public final class CudaSvProvider extends KernelBinding<CudaBackend, StochasticVolatility> {
    public CudaSvProvider() {
        super(CudaBackend.class, StochasticVolatility.class, null, null, CudaLikelihoodKernel::stochasticVolatility);
    }
}
