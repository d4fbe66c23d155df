package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.Kernels;
import org.logz.kernel.ParticleState;
import org.logz.kernel.SequentialKernel;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmSequence;
import org.logz.numeric.LogSpace;
import org.logz.path.UnitOrder;
import org.logz.random.Philox;

/**
 * The contract of {@link SequentialKernel} (ARM paper §5, eq. 13-14), on the sequential RBM: smoothing
 * weights and augmentation against the host formula, the move step against exact enumeration of
 * {@code p_active}, argument checks. Every backend module extends it.
 */
public abstract class SequentialKernelContract extends BackendTest {
    private SequentialKernel kernel(Rbm rbm) {
        return Kernels.sequential(backend, new RbmSequence(rbm, UnitOrder.natural(rbm.visible()), Optional.empty()));
    }

    @Test
    void sequentialSmoothingAndAugmentationMatchEquation14() {
        Rbm rbm = RandomRbm.create(19, 11, 1.0, 101);
        int unit = 7;
        float[] x = randomStates(70, 19, 102);
        for (int r = 0; r < 70; r++) {
            for (int i = unit; i < 19; i++) {
                x[r * 19 + i] = 0f;
            }
        }
        try (SequentialKernel ops = kernel(rbm); ParticleMatrix xm = backend.matrix(70, 19);
             ParticleMatrix g = backend.matrix(70, 11); ParticleVector lw = backend.vector(70)) {
            backend.upload(x, 70, xm);
            ParticleState state = new ParticleState(List.of(xm, g));
            ops.refresh(state, 0, 70);
            backend.fill(lw, 0, 70, 0.25);
            ops.smooth(state, unit, 3, 65, lw);
            double[] got = backend.download(lw, 70);
            assertEquals(0.25, got[2]);
            for (int r = 3; r < 68; r++) {
                assertClose(0.25 + LogSpace.softplus(Reference.entryLogit(rbm, x, r, unit)), got[r], "row " + r);
            }
            ops.augment(state, unit, 3, 65, 5, 9);
            float[] after = backend.download(xm, 70);
            try (ParticleMatrix g2 = backend.matrix(70, 11)) {
                ops.refresh(new ParticleState(List.of(xm, g2)), 0, 70);
                float[] inc = backend.download(g, 70);
                float[] fresh = backend.download(g2, 70);
                for (int k = 0; k < inc.length; k++) {
                    assertEquals(fresh[k], inc[k], 1e-4, "rank-1 update of g agrees with g = b + xW");
                }
            }
            for (int r = 0; r < 70; r++) {
                float expected = r < 3 || r >= 68 ? x[r * 19 + unit] : after[r * 19 + unit];
                assertEquals(expected, after[r * 19 + unit], "rows outside the range keep their states");
            }
        }
    }

    @Test
    void augmentationFollowsTheConditional() {
        Rbm rbm = RandomRbm.create(6, 4, 1.5, 103);
        int unit = 3;
        int count = 8_000;
        float[][] prefixes = {{1, 0, 1}, {0, 0, 0}};
        float[] x = new float[count * 6];
        for (int r = 0; r < count; r++) {
            System.arraycopy(prefixes[r % 2], 0, x, r * 6, 3);
        }
        try (SequentialKernel ops = kernel(rbm); ParticleMatrix xm = backend.matrix(count, 6);
             ParticleMatrix g = backend.matrix(count, 4)) {
            backend.upload(x, count, xm);
            ParticleState state = new ParticleState(List.of(xm, g));
            ops.refresh(state, 0, count);
            ops.augment(state, unit, 0, count, 17, 1);
            float[] after = backend.download(xm, count);
            for (int k = 0; k < 2; k++) {
                double p = LogSpace.sigmoid(Reference.entryLogit(rbm, x, k, unit));
                double mean = 0;
                for (int r = k; r < count; r += 2) {
                    mean += after[r * 6 + unit] / (count / 2.0);
                }
                assertEquals(p, mean, 5 * Math.sqrt(p * (1 - p) / (count / 2.0)), "prefix " + k);
            }
        }
    }

    /** Exact samples of the first {@code active} units under {@code p_active}, rows of {@code stride}. */
    private static float[] exactSequentialSamples(Rbm rbm, int active, int count, int stride, long seed) {
        double[] p = Reference.sequentialProbabilities(rbm, active);
        float[] x = new float[count * stride];
        int[] words = new int[4];
        for (int r = 0; r < count; r++) {
            Philox.block(seed, r, 0, 0, 79, words);
            double u = Philox.toUniformDouble(words[0], words[1]);
            int s = 0;
            double acc = p[0];
            while (acc <= u && s < p.length - 1) {
                acc += p[++s];
            }
            for (int i = 0; i < active; i++) {
                x[r * stride + i] = s >>> i & 1;
            }
        }
        return x;
    }

    @Test
    void moveLeavesTheSequentialDistributionInvariantAndInactiveUnitsAtZero() {
        Rbm rbm = RandomRbm.create(7, 3, 1.5, 104);
        int active = 4;
        int count = 20_000;
        try (SequentialKernel ops = kernel(rbm); ParticleMatrix x = backend.matrix(count, 7);
             ParticleMatrix g = backend.matrix(count, 3)) {
            backend.upload(exactSequentialSamples(rbm, active, count, 7, 3), count, x);
            ParticleState state = new ParticleState(List.of(x, g));
            ops.refresh(state, 0, count);
            ops.move(state, active, 0, count, 1, 23, 10);
            float[] states = backend.download(x, count);
            for (int r = 0; r < count; r++) {
                for (int i = active; i < 7; i++) {
                    assertEquals(0f, states[r * 7 + i], "unit " + i + " has not entered");
                }
            }
            double[] chi = Reference.chiSquare(states, count, 7, active, Reference.sequentialProbabilities(rbm, active));
            assertTrue(chi[0] < Reference.chiSquareCritical(chi[1]), "chi2 " + chi[0] + " with " + chi[1] + " df");
        }
    }

    @Test
    void wrongStatesAndClosedKernelsFailClearly() {
        Rbm rbm = RandomRbm.create(5, 3, 1.0, 105);
        SequentialKernel ops = kernel(rbm);
        try (ParticleMatrix x = backend.matrix(4, 5); ParticleMatrix g = backend.matrix(4, 3);
             ParticleMatrix wrong = backend.matrix(4, 2); ParticleVector lw = backend.vector(4)) {
            ParticleState state = new ParticleState(List.of(x, g));
            assertThrows(IllegalArgumentException.class, () -> ops.reset(new ParticleState(List.of(x, wrong)), 0, 4));
            assertThrows(IllegalArgumentException.class, () -> ops.reset(new ParticleState(List.of(x)), 0, 4));
            assertThrows(IllegalArgumentException.class, () -> ops.smooth(state, 5, 0, 4, lw));
            assertThrows(IllegalArgumentException.class, () -> ops.move(state, 6, 0, 4, 1, 1, 1));
            assertThrows(IllegalArgumentException.class, () -> ops.augment(state, 0, 2, 3, 1, 1));
            ops.close();
            ops.close();
            assertThrows(IllegalStateException.class, () -> ops.reset(state, 0, 4));
        }
    }
}
