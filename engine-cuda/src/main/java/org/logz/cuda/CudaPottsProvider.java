package org.logz.cuda;

import org.logz.kernel.KernelBinding;
import org.logz.model.potts.Potts;

/** The Potts kernel ({@link CudaPottsKernel}) on the {@code cuda} and {@code cuda-emulated} backends. */
public final class CudaPottsProvider extends KernelBinding<CudaBackend, Potts> {
    public CudaPottsProvider() {
        super(CudaBackend.class, Potts.class, CudaPottsKernel::new, null);
    }
}
