package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.backend.Betas;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.base.ProgressListener;
import org.logz.estimate.AnnealedImportanceSampling;
import org.logz.estimate.AnnealingResult;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.BaseRate;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.rbm.RbmEnumeration;
import org.logz.model.rbm.TemperedRbm;
import org.logz.numeric.LogSpace;
import org.logz.path.TemperedPath;
import org.logz.schedule.Schedule;

/**
 * The tempered RBM kernel's contract (DESIGN §2): log densities and annealing increments against the
 * float64 host formulas within {@code atol + |ref|·rtol}, base draws and Gibbs sweeps against exact
 * distributions by chi-square, determinism across thread counts, and AIS on an enumerable RBM. Every
 * backend module extends this class.
 */
public abstract class RbmKernelContract extends BackendTest {
    @Test
    void logDensityMatchesTheHostFormula() {
        Rbm rbm = RandomRbm.create(37, 13, 1.0, 21);
        float[] a0 = randomBase(37, 22);
        float[] x = randomStates(67, 37, 23);
        try (TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(rbm, BaseRate.of(a0, "test"))); ParticleMatrix m = backend.matrix(70, 37);
             ParticleVector out = backend.vector(70)) {
            backend.upload(x, 67, m);
            for (double beta : new double[] {0.0, 0.3, 1.0}) {
                backend.fill(out, 0, 70, -7.0);
                ops.logDensity(m, 67, beta, out);
                double[] got = backend.download(out, 70);
                for (int r = 0; r < 67; r++) {
                    assertClose(Reference.logDensity(rbm, a0, beta, x, r), got[r], "log f_" + beta + " row " + r);
                }
                assertEquals(-7.0, got[67], "entries past count are untouched");
            }
        }
    }

    @Test
    void annealStepWithoutTransitionAddsTheLogDensityRatio() {
        Rbm rbm = RandomRbm.create(29, 11, 1.5, 31);
        float[] a0 = randomBase(29, 32);
        float[] x = randomStates(65, 29, 33);
        try (TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(rbm, BaseRate.of(a0, "test"))); ParticleMatrix m = backend.matrix(65, 29);
             ParticleVector lw = backend.vector(66)) {
            backend.upload(x, 65, m);
            backend.fill(lw, 0, 66, 1.0);
            ops.anneal(m, 65, 0.25, 0.75, lw, 0, 9, 1);
            double[] got = backend.download(lw, 66);
            for (int r = 0; r < 65; r++) {
                double expected = 1.0 + Reference.logDensity(rbm, a0, 0.75, x, r) - Reference.logDensity(rbm, a0, 0.25, x, r);
                assertClose(expected, got[r], "row " + r);
            }
            assertEquals(1.0, got[65]);
            assertArrayEquals(x, backend.download(m, 65), "no transition: states unchanged");
        }
    }

    @Test
    void baseSamplesHaveTheBaseRateMeans() {
        float[] a0 = {-3f, -1f, 0f, 0.5f, 2f, 4f, -0.2f};
        int count = 4097;
        try (TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(RandomRbm.create(7, 3, 1, 1), BaseRate.of(a0, "test")));
             ParticleMatrix m = backend.matrix(count, 7)) {
            ops.sampleBase(m, count, 5, 0);
            float[] x = backend.download(m, count);
            for (int i = 0; i < 7; i++) {
                double p = LogSpace.sigmoid(a0[i]);
                double mean = 0;
                for (int r = 0; r < count; r++) {
                    mean += x[r * 7 + i];
                }
                mean /= count;
                double sd = Math.sqrt(p * (1 - p) / count);
                assertEquals(p, mean, 5 * sd + 1e-9, "unit " + i);
            }
        }
    }

    @Test
    void gibbsSweepsLeaveTheTemperedDistributionInvariant() {
        Rbm rbm = RandomRbm.create(5, 3, 1.5, 41);
        float[] a0 = randomBase(5, 42);
        int count = 20_001;
        try (TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(rbm, BaseRate.of(a0, "test"))); ParticleMatrix m = backend.matrix(count, 5)) {
            for (double beta : new double[] {1.0, 0.6}) {
                ops.sampleBase(m, count, 11, 0);
                ops.transition(m, count, Betas.of(beta), 12, 11, 1);
                double[] chi = Reference.chiSquare(backend.download(m, count), count, 5, 5,
                        Reference.temperedProbabilities(rbm, a0, beta));
                assertTrue(chi[0] < Reference.chiSquareCritical(chi[1]),
                        "β=" + beta + ": chi2 " + chi[0] + " with " + chi[1] + " df");
            }
        }
    }

    @Test
    void annealedSweepsAreDeterministicAndThreadCountIndependent() {
        Rbm rbm = RandomRbm.create(23, 9, 1.0, 51);
        float[] a0 = randomBase(23, 52);
        float[][] states = new float[2][];
        double[][] weights = new double[2][];
        for (int threads = 1; threads <= 2; threads++) {
            try (ParticleBackend b = createBackend(threads); TemperedKernel ops = Kernels.tempered(b, new TemperedRbm(rbm, BaseRate.of(a0, "t")));
                 ParticleMatrix m = b.matrix(150, 23); ParticleVector lw = b.vector(150)) {
                ops.sampleBase(m, 150, 77, 0);
                for (int k = 1; k <= 5; k++) {
                    ops.anneal(m, 150, (k - 1) / 5.0, k / 5.0, lw, 1, 77, k);
                }
                ops.transition(m, 150, Betas.of(1.0), 2, 77, 6);
                states[threads - 1] = b.download(m, 150);
                weights[threads - 1] = b.download(lw, 150);
            }
        }
        assertArrayEquals(states[0], states[1]);
        assertArrayEquals(weights[0], weights[1]);
        for (float v : states[0]) {
            assertTrue(v == 0f || v == 1f, "states stay binary");
        }
    }

    @Test
    void aisOnASmallRbmLandsOnTheExactValue() {
        Rbm rbm = RandomRbm.create(12, 7, 1.0, 61);
        double exact = RbmEnumeration.logZ(rbm);
        try (TemperedPath path = new TemperedPath(backend, new TemperedRbm(rbm, BaseRate.uniform(12)))) {
            AnnealingResult r = new AnnealedImportanceSampling(
                    new AnnealedImportanceSampling.Settings(300, Schedule.linear(200), 3)).forward(path, ProgressListener.NONE);
            assertTrue(Math.abs(r.logZ() - exact) <= Math.max(4 * r.stdErr(), 0.1),
                    "AIS " + r.logZ() + " ± " + r.stdErr() + " vs exact " + exact);
            assertTrue(r.stdErr() < 0.1, "standard error " + r.stdErr());
            assertEquals(backend.name(), r.backend());
        }
    }
}
