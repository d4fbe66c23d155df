package org.logz.cpu;

import org.logz.kernel.KernelBinding;
import org.logz.model.potts.Potts;

/** The Potts kernel ({@link CpuPottsKernel}) on the {@code cpu} backend. */
public final class CpuPottsProvider extends KernelBinding<CpuBackend, Potts> {
    public CpuPottsProvider() {
        super(CpuBackend.class, Potts.class, CpuPottsKernel::new, null);
    }
}
