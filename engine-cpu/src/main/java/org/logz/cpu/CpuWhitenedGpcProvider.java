package org.logz.cpu;

import org.logz.kernel.KernelBinding;
import org.logz.model.gpc.WhitenedGpc;

/** GP classification in whitened coordinates sampled by HMC ({@link CpuHmcKernel}) on the {@code cpu} backend. */
public final class CpuWhitenedGpcProvider extends KernelBinding<CpuBackend, WhitenedGpc> {
    public CpuWhitenedGpcProvider() {
        super(CpuBackend.class, WhitenedGpc.class, CpuHmcKernel::new, null);
    }
}
