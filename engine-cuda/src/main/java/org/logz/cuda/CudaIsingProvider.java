package org.logz.cuda;

import org.logz.kernel.KernelBinding;
import org.logz.model.ising.Ising;

/** The Ising kernel ({@link CudaIsingKernel}) on the {@code cuda} and {@code cuda-emulated} backends. */
public final class CudaIsingProvider extends KernelBinding<CudaBackend, Ising> {
    public CudaIsingProvider() {
        super(CudaBackend.class, Ising.class, CudaIsingKernel::new, null);
    }
}
