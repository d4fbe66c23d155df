package org.logz.cuda;

import org.logz.kernel.KernelBinding;
import org.logz.path.GpcSequence;

/** The GP classifier's sequential kernel ({@link CudaGpcKernel}) on the {@code cuda} and {@code cuda-emulated} backends. */
public final class CudaGpcSequenceProvider extends KernelBinding<CudaBackend, GpcSequence> {
    public CudaGpcSequenceProvider() {
        super(CudaBackend.class, GpcSequence.class, null, CudaGpcKernel::new);
    }
}
