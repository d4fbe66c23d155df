package org.logz.cuda;

import org.logz.kernel.KernelBinding;
import org.logz.model.gpc.WhitenedGpc;

/** GP classification by HMC in whitened coordinates ({@link CudaWhitenedGpcKernel}) on {@code cuda} and {@code cuda-emulated}. */
public final class CudaWhitenedGpcProvider extends KernelBinding<CudaBackend, WhitenedGpc> {
    public CudaWhitenedGpcProvider() {
        super(CudaBackend.class, WhitenedGpc.class, CudaWhitenedGpcKernel::new, null);
    }
}
