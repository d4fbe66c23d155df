package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.IntFunction;

import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.TemperedModel;

/** The checks the lattice models' kernel contracts (Ising, Potts) share. */
final class LatticeKernelChecks {
    private LatticeKernelChecks() {
    }

    /** Base draws, annealing up with sweeps and a reversed step down give the same bits on one and two threads. */
    static void assertThreadCountIndependent(IntFunction<ParticleBackend> backends, TemperedModel model) {
        int sites = model.dimension();
        float[][] states = new float[2][];
        double[][] weights = new double[2][];
        for (int threads = 1; threads <= 2; threads++) {
            try (ParticleBackend b = backends.apply(threads); TemperedKernel ops = Kernels.tempered(b, model);
                 ParticleMatrix x = b.matrix(131, sites); ParticleVector lw = b.vector(131)) {
                ops.sampleBase(x, 131, 11, 0);
                ops.anneal(x, 131, 0.0, 0.5, lw, 2, 11, 1);
                ops.anneal(x, 131, 0.5, 0.4, lw, 1, 11, 3);
                states[threads - 1] = b.download(x, 131);
                weights[threads - 1] = b.download(lw, 131);
            }
        }
        assertArrayEquals(states[0], states[1]);
        assertArrayEquals(weights[0], weights[1]);
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
