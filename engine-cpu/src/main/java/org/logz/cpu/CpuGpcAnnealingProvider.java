package org.logz.cpu;

import org.logz.kernel.KernelBinding;
import org.logz.model.gpc.TemperedGpc;

/** GP classification on its tempered path, elliptical slice sampling ({@link CpuGpcAnnealingKernel}), on the {@code cpu} backend. */
public final class CpuGpcAnnealingProvider extends KernelBinding<CpuBackend, TemperedGpc> {
    public CpuGpcAnnealingProvider() {
        super(CpuBackend.class, TemperedGpc.class, CpuGpcAnnealingKernel::new, null);
    }
}
