package org.logz.cpu;

import org.logz.kernel.KernelBinding;
import org.logz.model.gmm.GaussianMixture;

/** The Gaussian mixture sampled by HMC ({@link CpuHmcKernel}) on the {@code cpu} backend. */
public final class CpuGmmProvider extends KernelBinding<CpuBackend, GaussianMixture> {
    public CpuGmmProvider() {
        super(CpuBackend.class, GaussianMixture.class, CpuHmcKernel::new, null);
    }
}
