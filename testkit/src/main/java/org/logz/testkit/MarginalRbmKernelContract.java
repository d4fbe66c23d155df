package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.RandomRbm;
import org.logz.model.rbm.MarginalRbm;
import org.logz.numeric.LogSpace;

/**
 * The contract of the marginal RBM path's {@link TemperedKernel} (Habeck 2017, §6.3): fair base coins, the level
 * densities, slopes and annealing increments against {@code β·(−F(h))} evaluated on the host, invariance of the exact
 * {@code p_β(h) ∝ exp(β·(−F(h)))} (by enumeration of a 5-unit hidden layer) under forward sweeps at per-chain β and
 * under time-reversed sweeps, and thread-count independence.
 */
public abstract class MarginalRbmKernelContract extends BackendTest {
    /** Strong enough couplings that the sweeps have something to mix; 2^5 hidden states to enumerate. */
    private static final MarginalRbm TINY = new MarginalRbm(RandomRbm.create(7, 5, 1.5, 21));

    /** Exact {@code p_β(h)} over the 2^H hidden states, bit j of the index being unit j. */
    private static double[] exact(MarginalRbm model, double beta) {
        int hidden = model.dimension();
        double[] logP = new double[1 << hidden];
        float[] h = new float[hidden];
        for (int s = 0; s < logP.length; s++) {
            for (int j = 0; j < hidden; j++) {
                h[j] = (s >>> j & 1) == 1 ? 1f : 0f;
            }
            logP[s] = beta * model.negativeFreeEnergy(h, 0);
        }
        double norm = LogSpace.logSumExp(logP);
        double[] p = new double[logP.length];
        for (int s = 0; s < p.length; s++) {
            p[s] = Math.exp(logP[s] - norm);
        }
        return p;
    }

    /** Chi-square of rows {@code from, from + step, ...} against {@code p}. */
    private static void assertFollow(float[] states, int hidden, int from, int step, int count, double[] p, String what) {
        int[] category = new int[count];
        for (int r = 0, at = from; r < count; r++, at += step) {
            for (int j = 0; j < hidden; j++) {
                category[r] |= (states[at * hidden + j] == 1f ? 1 : 0) << j;
            }
        }
        double[] chi = Reference.chiSquare(category, p);
        assertTrue(chi[0] < Reference.chiSquareCritical(chi[1]), what + ": chi2 " + chi[0] + " with " + chi[1] + " df");
    }

    @Test
    void baseDrawsAreFairCoins() {
        MarginalRbm model = new MarginalRbm(RandomRbm.create(9, 13, 1.0, 4));
        int count = 4097;
        try (TemperedKernel ops = Kernels.tempered(backend, model); ParticleMatrix x = backend.matrix(count, 13)) {
            ops.sampleBase(x, count, 3, 0);
            float[] h = backend.download(x, count);
            for (int j = 0; j < 13; j++) {
                double mean = 0;
                for (int r = 0; r < count; r++) {
                    assertTrue(h[r * 13 + j] == 0f || h[r * 13 + j] == 1f, "units are 0 or 1");
                    mean += h[r * 13 + j] / count;
                }
                assertEquals(0.5, mean, 5 * 0.5 / Math.sqrt(count), "unit " + j);
            }
        }
    }

    @Test
    void densitiesLevelsAndIncrementsMatchTheHost() {
        MarginalRbm model = new MarginalRbm(RandomRbm.create(23, 9, 2.0, 5));
        int rows = 67;
        int levels = 3;
        float[] h = randomStates(rows, 9, 5);
        try (TemperedKernel ops = Kernels.tempered(backend, model); ParticleMatrix m = backend.matrix(70, 9);
             ParticleVector out = backend.vector(70); ParticleVector betas = backend.vector(levels);
             ParticleVector logF = backend.vector(rows * levels); ParticleVector slope = backend.vector(rows * levels)) {
            backend.upload(h, rows, m);
            backend.fill(out, 0, 70, -7.0);
            ops.logDensity(m, rows, 0.37, out);
            double[] got = backend.download(out, 70);
            backend.upload(new double[] {0, 0.5, 1}, betas);
            ops.levels(m, rows, betas, levels, logF, slope);
            double[] f = backend.download(logF, rows * levels);
            double[] d = backend.download(slope, rows * levels);
            for (int r = 0; r < rows; r++) {
                double negF = model.negativeFreeEnergy(h, r * 9);
                assertEquals(0.37 * negF, got[r], 1e-10 * (1 + Math.abs(negF)), "row " + r);
                for (int k = 0; k < levels; k++) {
                    assertEquals(k * 0.5 * negF, f[r * levels + k], 1e-10 * (1 + Math.abs(negF)), "level " + k);
                    assertEquals(negF, d[r * levels + k], 1e-10 * (1 + Math.abs(negF)), "slope " + k);
                }
            }
            assertEquals(-7.0, got[rows], "entries past count are untouched");
            backend.fill(out, 0, 70, 1.0);
            ops.anneal(m, rows, 0.25, 0.75, out, 0, 9, 1);
            double[] inc = backend.download(out, rows);
            for (int r = 0; r < rows; r++) {
                double negF = model.negativeFreeEnergy(h, r * 9);
                assertEquals(1.0 + 0.5 * negF, inc[r], 1e-10 * (1 + Math.abs(negF)), "row " + r);
            }
            assertArrayEquals(h, backend.download(m, rows), "no sweeps: states unchanged");
        }
    }

    @Test
    void sweepsLeaveTheExactMarginalInvariant() {
        int count = 20_001;
        double[] temperature = {0.5, 1.0};
        double[] perChain = new double[count];
        for (int r = 0; r < count; r++) {
            perChain[r] = temperature[r % 2];
        }
        try (TemperedKernel ops = Kernels.tempered(backend, TINY); ParticleMatrix x = backend.matrix(count, 5);
             ParticleVector b = backend.vector(count); ParticleVector lw = backend.vector(count)) {
            backend.upload(perChain, b);
            ops.sampleBase(x, count, 7, 0);
            ops.transition(x, count, Betas.of(b), 40, 7, 1);
            float[] h = backend.download(x, count);
            for (int g = 0; g < 2; g++) {
                assertFollow(h, 5, g, 2, (count - g + 1) / 2, exact(TINY, temperature[g]),
                        "forward sweeps at β=" + temperature[g]);
            }
            ops.transition(x, count, Betas.of(0.5), 40, 7, 41);
            ops.anneal(x, count, 1.0, 0.5, lw, 3, 7, 81);
            assertFollow(backend.download(x, count), 5, 0, 1, count, exact(TINY, 0.5), "reversed sweeps at β=0.5");
        }
    }

    @Test
    void sweepsAreThreadCountIndependent() {
        assertThreadCountIndependent(new MarginalRbm(RandomRbm.create(17, 11, 1.0, 8)), 131);
    }

    @Test
    void wrongShapesAndClosedOpsFailClearly() {
        TemperedKernel ops = Kernels.tempered(backend, TINY);
        try (ParticleMatrix wrong = backend.matrix(3, 7)) {
            assertThrows(IllegalArgumentException.class, () -> ops.sampleBase(wrong, 3, 1, 0));
        }
        ops.close();
        ops.close();
        try (ParticleMatrix x = backend.matrix(3, 5)) {
            assertThrows(IllegalStateException.class, () -> ops.sampleBase(x, 3, 1, 0));
        }
    }
}
