package org.logz.cuda;

import org.logz.kernel.KernelBinding;
import org.logz.model.rbm.TemperedRbm;

/** The base-rate tempered RBM kernel ({@link CudaRbmKernel}) on the {@code cuda} and {@code cuda-emulated} backends. */
public final class CudaTemperedRbmProvider extends KernelBinding<CudaBackend, TemperedRbm> {
    public CudaTemperedRbmProvider() {
        super(CudaBackend.class, TemperedRbm.class, (backend, model) -> new CudaRbmKernel(backend, model.rbm(), model.baseRate()), null);
    }
}
