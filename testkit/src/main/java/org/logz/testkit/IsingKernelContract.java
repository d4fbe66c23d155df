package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.ising.Ising;
import org.logz.numeric.LogSpace;
import org.logz.random.Philox;

/**
 * The contract of the Ising {@link TemperedKernel}: base draws, the coupling sum against the host, annealing
 * increments, and invariance of the exact distribution of {@code S = Σ_<ij> x_i x_j} (by enumeration
 * of the 4 × 4 torus) under forward sweeps, per-chain temperatures and time-reversed sweeps.
 */
public abstract class IsingKernelContract extends BackendTest {
    private static float[] randomSpins(int rows, int sites, long seed) {
        float[] x = new float[rows * sites];
        int[] words = new int[4];
        for (int e = 0; e < x.length; e++) {
            Philox.block(seed, e, 0, 0, 81, words);
            x[e] = Philox.toUniform(words[0]) < 0.3f ? 1f : -1f;
        }
        return x;
    }

    /** Exact {@code P_β(S = 4j - 2L²)} on the L × L torus by enumeration (S is a multiple of 4 minus 2L²). */
    private static double[] couplingDistribution(int l, double beta) {
        Ising model = new Ising(l);
        int n = l * l;
        int bins = n + 1;
        double[] logP = new double[bins];
        java.util.Arrays.fill(logP, Double.NEGATIVE_INFINITY);
        float[] x = new float[n];
        for (int s = 0; s < 1 << n; s++) {
            for (int i = 0; i < n; i++) {
                x[i] = (s >>> i & 1) == 1 ? 1f : -1f;
            }
            double c = model.coupling(x, 0);
            int bin = bin(c, n);
            logP[bin] = LogSpace.logSumExp(new double[] {logP[bin], beta * c});
        }
        double norm = LogSpace.logSumExp(logP);
        double[] p = new double[bins];
        for (int b = 0; b < bins; b++) {
            p[b] = Math.exp(logP[b] - norm);
        }
        return p;
    }

    private static int bin(double coupling, int sites) {
        return (int) Math.round((coupling + 2 * sites) / 4);
    }

    /** Chi-square of the coupling sums of rows {@code from, from + step, ...} against {@code p}. */
    private static void assertCouplingsFollow(Ising model, float[] spins, int from, int step, int count, double[] p,
                                              String what) {
        int[] bins = new int[count];
        for (int r = 0, at = from; r < count; r++, at += step) {
            bins[r] = bin(model.coupling(spins, at * model.sites()), model.sites());
        }
        double[] chi = Reference.chiSquare(bins, p);
        assertTrue(chi[0] < Reference.chiSquareCritical(chi[1]), what + ": chi2 " + chi[0] + " with " + chi[1] + " df");
    }

    @Test
    void baseDrawsAreFairCoins() {
        Ising model = new Ising(6);
        int count = 4097;
        try (TemperedKernel ops = Kernels.tempered(backend, model); ParticleMatrix x = backend.matrix(count, 36)) {
            ops.sampleBase(x, count, 3, 0);
            float[] s = backend.download(x, count);
            for (int i = 0; i < 36; i++) {
                double mean = 0;
                for (int r = 0; r < count; r++) {
                    assertTrue(s[r * 36 + i] == 1f || s[r * 36 + i] == -1f, "spins are ±1");
                    mean += s[r * 36 + i] / count;
                }
                assertEquals(0, mean, 5 / Math.sqrt(count), "site " + i);
            }
        }
    }

    @Test
    void logDensityAndAnnealingIncrementMatchTheHost() {
        Ising model = new Ising(10);
        int rows = 67;
        float[] x = randomSpins(rows, 100, 5);
        try (TemperedKernel ops = Kernels.tempered(backend, model); ParticleMatrix m = backend.matrix(70, 100);
             ParticleVector out = backend.vector(70)) {
            backend.upload(x, rows, m);
            backend.fill(out, 0, 70, -7.0);
            ops.logDensity(m, rows, 0.37, out);
            double[] got = backend.download(out, 70);
            for (int r = 0; r < rows; r++) {
                assertEquals(0.37 * model.coupling(x, r * 100), got[r], 1e-9, "row " + r);
            }
            assertEquals(-7.0, got[rows], "entries past count are untouched");
            backend.fill(out, 0, 70, 1.0);
            ops.anneal(m, rows, 0.25, 0.75, out, 0, 9, 1);
            double[] inc = backend.download(out, rows);
            for (int r = 0; r < rows; r++) {
                assertEquals(1.0 + 0.5 * model.coupling(x, r * 100), inc[r], 1e-9, "row " + r);
            }
            assertArrayEquals(x, backend.download(m, rows), "no sweeps: states unchanged");
        }
    }

    @Test
    void sweepsLeaveTheCouplingDistributionInvariant() {
        Ising model = new Ising(4);
        int count = 30_001;
        double[] temperature = {0.3, 0.6};
        double[] betas = new double[count];
        for (int r = 0; r < count; r++) {
            betas[r] = temperature[r % 2];
        }
        try (TemperedKernel ops = Kernels.tempered(backend, model); ParticleMatrix x = backend.matrix(count, 16);
             ParticleVector b = backend.vector(count); ParticleVector lw = backend.vector(count)) {
            backend.upload(betas, b);
            ops.sampleBase(x, count, 7, 0);
            ops.transition(x, count, Betas.of(b), 60, 7, 1);
            float[] s = backend.download(x, count);
            for (int g = 0; g < 2; g++) {
                assertCouplingsFollow(model, s, g, 2, (count - g + 1) / 2, couplingDistribution(4, temperature[g]),
                        "forward sweeps at β=" + temperature[g]);
            }
            ops.transition(x, count, Betas.of(0.6), 60, 7, 61);
            ops.anneal(x, count, 0.7, 0.6, lw, 3, 7, 121);
            assertCouplingsFollow(model, backend.download(x, count), 0, 1, count, couplingDistribution(4, 0.6),
                    "reversed sweeps at β=0.6");
        }
    }

    @Test
    void sweepsAreThreadCountIndependent() {
        assertThreadCountIndependent(new Ising(6), 131);
    }

    @Test
    void wrongShapesAndClosedOpsFailClearly() {
        LatticeKernelChecks.assertWrongShapesAndClosedOpsFail(backend, new Ising(4));
    }
}
