package org.logz.cuda;

import org.logz.kernel.KernelBinding;
import org.logz.model.toy.GaussianToy;

/** The Gaussian toy's kernel ({@link CudaGaussianToyKernel}) on the {@code cuda} and {@code cuda-emulated} backends. */
public final class CudaGaussianToyProvider extends KernelBinding<CudaBackend, GaussianToy> {
    public CudaGaussianToyProvider() {
        super(CudaBackend.class, GaussianToy.class, CudaGaussianToyKernel::new, null);
    }
}
