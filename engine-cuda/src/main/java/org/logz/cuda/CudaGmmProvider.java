package org.logz.cuda;

import org.logz.kernel.KernelBinding;
import org.logz.model.gmm.GaussianMixture;

/** The Gaussian mixture by HMC ({@link CudaGmmKernel}) on the {@code cuda} and {@code cuda-emulated} backends. */
public final class CudaGmmProvider extends KernelBinding<CudaBackend, GaussianMixture> {
    public CudaGmmProvider() {
        super(CudaBackend.class, GaussianMixture.class, CudaGmmKernel::new, null);
    }
}
