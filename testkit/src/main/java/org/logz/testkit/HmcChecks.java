package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.HmcModel;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;

/** Checks that the HMC contracts share (GmmKernelContract, GpcHmcKernelContract). */
final class HmcChecks {
    private HmcChecks() {
    }

    /** Rows of {@code d} values that differ between {@code before} and {@code after}: the accepted transitions of one. */
    static int moved(float[] before, float[] after, int d) {
        int n = 0;
        for (int r = 0; r < after.length / d; r++) {
            if (!Arrays.equals(before, r * d, (r + 1) * d, after, r * d, (r + 1) * d)) {
                n++;
            }
        }
        return n;
    }

    /**
     * {@code count} chains from the base annealed to β = 1 in {@code steps} steps of two transitions on {@code backend}
     * and on {@code reference}: at least 98% end in the same state (first coordinate within 1e-4) with the same log
     * weight (within 1e-6), the rest allowed to part at a rounding flip of an accept decision. Same draws and the same
     * ε sequence are what makes them agree.
     */
    static void assertTrajectoriesAgree(ParticleBackend backend, ParticleBackend reference, HmcModel m, int count,
                                        int steps) {
        int d = m.dimension();
        float[][] states = new float[2][];
        double[][] weights = new double[2][];
        ParticleBackend[] both = {backend, reference};
        for (int b = 0; b < 2; b++) {
            try (TemperedKernel k = Kernels.tempered(both[b], m); ParticleMatrix x = both[b].matrix(count, d);
                 ParticleVector lw = both[b].vector(count)) {
                both[b].fill(lw, 0, count, 0.0);
                k.sampleBase(x, count, 21, 0);
                for (int s = 1; s <= steps; s++) {
                    k.anneal(x, count, (s - 1) / (double) steps, s / (double) steps, lw, 2, 21, 2 * s);
                }
                states[b] = both[b].download(x, count);
                weights[b] = both[b].download(lw, count);
            }
        }
        int agree = 0;
        for (int r = 0; r < count; r++) {
            if (Math.abs(states[0][d * r] - states[1][d * r]) < 1e-4 && Math.abs(weights[0][r] - weights[1][r]) < 1e-6) {
                agree++;
            }
        }
        assertTrue(agree >= 0.98 * count, agree + " of " + count + " chains agree with the reference");
    }
}
