package org.logz.cpu;

import org.logz.kernel.KernelBinding;
import org.logz.model.toy.GaussianToy;

/** The Gaussian toy's kernel ({@link CpuGaussianToyKernel}) on the {@code cpu} backend. */
public final class CpuGaussianToyProvider extends KernelBinding<CpuBackend, GaussianToy> {
    public CpuGaussianToyProvider() {
        super(CpuBackend.class, GaussianToy.class, CpuGaussianToyKernel::new, null);
    }
}
