package org.logz.cpu;

import org.logz.kernel.KernelBinding;
import org.logz.model.rbm.MarginalRbm;

/** The marginal RBM path's kernel ({@link CpuMarginalRbmKernel}) on the {@code cpu} backend. */
public final class CpuMarginalRbmProvider extends KernelBinding<CpuBackend, MarginalRbm> {
    public CpuMarginalRbmProvider() {
        super(CpuBackend.class, MarginalRbm.class, CpuMarginalRbmKernel::new, null);
    }
}
