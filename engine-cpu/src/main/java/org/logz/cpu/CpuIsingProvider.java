package org.logz.cpu;

import org.logz.kernel.KernelBinding;
import org.logz.model.ising.Ising;

/** The Ising kernel ({@link CpuIsingKernel}) on the {@code cpu} backend. */
public final class CpuIsingProvider extends KernelBinding<CpuBackend, Ising> {
    public CpuIsingProvider() {
        super(CpuBackend.class, Ising.class, CpuIsingKernel::new, null);
    }
}
