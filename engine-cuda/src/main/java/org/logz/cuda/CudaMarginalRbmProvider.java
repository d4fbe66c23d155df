package org.logz.cuda;

import org.logz.kernel.KernelBinding;
import org.logz.model.rbm.MarginalRbm;

/** The marginal RBM path's kernel ({@link CudaMarginalRbmKernel}) on the {@code cuda} and {@code cuda-emulated} backends. */
public final class CudaMarginalRbmProvider extends KernelBinding<CudaBackend, MarginalRbm> {
    public CudaMarginalRbmProvider() {
        super(CudaBackend.class, MarginalRbm.class, CudaMarginalRbmKernel::new, null);
    }
}
