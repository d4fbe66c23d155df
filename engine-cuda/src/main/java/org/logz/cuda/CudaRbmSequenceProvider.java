package org.logz.cuda;

import org.logz.kernel.KernelBinding;
import org.logz.model.BaseRate;
import org.logz.model.rbm.RbmSequence;

/** The sequential RBM kernel, ARM eq. 13-14 ({@link CudaRbmKernel}) on the {@code cuda} and {@code cuda-emulated} backends. */
public final class CudaRbmSequenceProvider extends KernelBinding<CudaBackend, RbmSequence> {
    public CudaRbmSequenceProvider() {
        super(CudaBackend.class, RbmSequence.class, null,
                (backend, model) -> new CudaRbmKernel(backend, model.permuted(), BaseRate.uniform(model.length())));
    }
}
