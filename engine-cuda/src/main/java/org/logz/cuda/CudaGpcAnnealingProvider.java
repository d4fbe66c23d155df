package org.logz.cuda;

import org.logz.kernel.KernelBinding;
import org.logz.model.gpc.TemperedGpc;

/** GP classification on its tempered path ({@link CudaGpcAnnealingKernel}) on the {@code cuda} and {@code cuda-emulated} backends. */
public final class CudaGpcAnnealingProvider extends KernelBinding<CudaBackend, TemperedGpc> {
    public CudaGpcAnnealingProvider() {
        super(CudaBackend.class, TemperedGpc.class, CudaGpcAnnealingKernel::new, null);
    }
}
