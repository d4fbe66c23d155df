package org.logz.cuda;

import org.logz.kernel.KernelBinding;
import org.logz.model.latent.Glmm;

/** The GLMM's importance-sampled likelihood (glmm_likelihood.cu) on the {@code cuda} and {@code cuda-emulated} backends. */
public final class CudaGlmmProvider extends KernelBinding<CudaBackend, Glmm> {
    public CudaGlmmProvider() {
        super(CudaBackend.class, Glmm.class, null, null, CudaLikelihoodKernel::glmm);
    }
}
