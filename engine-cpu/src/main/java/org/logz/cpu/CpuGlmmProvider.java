package org.logz.cpu;

import org.logz.kernel.KernelBinding;
import org.logz.model.latent.Glmm;

/** The GLMM's importance-sampled likelihood ({@link CpuLikelihoodKernel}) on the {@code cpu} backend. */
public final class CpuGlmmProvider extends KernelBinding<CpuBackend, Glmm> {
    public CpuGlmmProvider() {
        super(CpuBackend.class, Glmm.class, null, null, CpuLikelihoodKernel::glmm);
    }
}
