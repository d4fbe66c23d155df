package org.logz.cpu;

import org.logz.kernel.KernelBinding;
import org.logz.model.rbm.TemperedRbm;

/** The base-rate tempered RBM kernel ({@link CpuRbmKernel}) on the {@code cpu} backend. */
public final class CpuTemperedRbmProvider extends KernelBinding<CpuBackend, TemperedRbm> {
    public CpuTemperedRbmProvider() {
        super(CpuBackend.class, TemperedRbm.class, (backend, model) -> new CpuRbmKernel(backend, model.rbm(), model.baseRate()), null);
    }
}
