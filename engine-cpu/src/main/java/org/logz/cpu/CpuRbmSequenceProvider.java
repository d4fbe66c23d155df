package org.logz.cpu;

import org.logz.kernel.KernelBinding;
import org.logz.model.BaseRate;
import org.logz.model.rbm.RbmSequence;

/** The sequential RBM kernel, ARM eq. 13-14 ({@link CpuRbmKernel}) on the {@code cpu} backend. */
public final class CpuRbmSequenceProvider extends KernelBinding<CpuBackend, RbmSequence> {
    public CpuRbmSequenceProvider() {
        super(CpuBackend.class, RbmSequence.class, null,
                (backend, model) -> new CpuRbmKernel(backend, model.permuted(), BaseRate.uniform(model.length())));
    }
}
