package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.TemperedModel;

/** The checks the lattice models' kernel contracts (Ising, Potts) share. */
final class LatticeKernelChecks {
    private LatticeKernelChecks() {
    }

    /** A matrix of the wrong width is refused, closing twice is harmless, a closed kernel refuses to run. */
    static void assertWrongShapesAndClosedOpsFail(ParticleBackend backend, TemperedModel model) {
        int sites = model.dimension();
        TemperedKernel ops = Kernels.tempered(backend, model);
        try (ParticleMatrix wrong = backend.matrix(3, sites - 1)) {
            assertThrows(IllegalArgumentException.class, () -> ops.sampleBase(wrong, 3, 1, 0));
        }
        ops.close();
        ops.close();
        try (ParticleMatrix x = backend.matrix(3, sites)) {
            assertThrows(IllegalStateException.class, () -> ops.sampleBase(x, 3, 1, 0));
        }
    }
}
