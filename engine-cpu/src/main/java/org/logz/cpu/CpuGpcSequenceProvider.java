package org.logz.cpu;

import org.logz.kernel.KernelBinding;
import org.logz.path.GpcSequence;

/** The GP classifier's sequential kernel, ARM Appendix A ({@link CpuGpcKernel}), on the {@code cpu} backend. */
public final class CpuGpcSequenceProvider extends KernelBinding<CpuBackend, GpcSequence> {
    public CpuGpcSequenceProvider() {
        super(CpuBackend.class, GpcSequence.class, null, CpuGpcKernel::new);
    }
}
