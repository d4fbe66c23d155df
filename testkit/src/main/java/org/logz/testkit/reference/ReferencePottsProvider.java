package org.logz.testkit.reference;

import org.logz.kernel.KernelBinding;
import org.logz.model.potts.Potts;

/** The reference backend's Potts kernel ({@link ReferencePottsKernel}), found by ServiceLoader like every backend's. */
public final class ReferencePottsProvider extends KernelBinding<ReferenceBackend, Potts> {
    public ReferencePottsProvider() {
        super(ReferenceBackend.class, Potts.class, ReferencePottsKernel::new, null);
    }
}
