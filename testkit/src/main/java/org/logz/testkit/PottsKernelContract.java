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
import org.logz.model.potts.Potts;
import org.logz.model.potts.PottsExact;
import org.logz.numeric.LogSpace;
import org.logz.random.Philox;

/**
 * The contract of the Potts {@link TemperedKernel}, for heat-bath and Metropolis sweeps: uniform base draws, the
 * agreement count against the host, annealing increments and levels, invariance of the exact distribution of the 2 × 2
 * torus's 81 three-colourings (enumerated) under forward, per-chain-temperature and time-reversed sweeps from exact
 * draws, and the mean agreement count of the 4 × 4 torus after sweeps from the base against the transfer matrix's
 * {@code d log Z / d(β J)}.
 */
public abstract class PottsKernelContract extends BackendTest {
    private static float[] randomColours(int rows, int sites, int colours, long seed) {
        float[] x = new float[rows * sites];
        int[] words = new int[4];
        for (int e = 0; e < x.length; e++) {
            Philox.block(seed, e, 0, 0, 83, words);
            x[e] = Math.min((int) (Philox.toUniform(words[0]) * colours), colours - 1);
        }
        return x;
    }

    /** {@code p_β} over the q^4 colourings of the 2 × 2 torus, colouring index Σ_i x_i q^i. */
    private static double[] exactDistribution(Potts model, double beta) {
        int q = model.colours();
        int states = q * q * q * q;
        double[] logP = new double[states];
        float[] x = new float[4];
        for (int s = 0; s < states; s++) {
            decode(s, q, x);
            logP[s] = beta * model.coupling() * model.agreements(x, 0);
        }
        double norm = LogSpace.logSumExp(logP);
        double[] p = new double[states];
        for (int s = 0; s < states; s++) {
            p[s] = Math.exp(logP[s] - norm);
        }
        return p;
    }

    private static void decode(int s, int q, float[] x) {
        for (int i = 0, rest = s; i < 4; i++, rest /= q) {
            x[i] = rest % q;
        }
    }

    /** Exact draws from {@code p} for rows of alternating distributions, by inversion with host uniforms. */
    private static float[] exactDraws(int count, int q, double[][] p, long seed) {
        float[] x = new float[4 * count];
        float[] one = new float[4];
        int[] words = new int[4];
        for (int r = 0; r < count; r++) {
            Philox.block(seed, r, 0, 0, 84, words);
            double u = Philox.toUniformDouble(words[0], words[1]);
            double[] dist = p[r % p.length];
            int s = 0;
            double cumulative = dist[0];
            while (u >= cumulative && s < dist.length - 1) {
                cumulative += dist[++s];
            }
            decode(s, q, one);
            System.arraycopy(one, 0, x, 4 * r, 4);
        }
        return x;
    }

    private static void assertFollows(float[] x, int from, int step, int count, int q, double[] p, String what) {
        int[] category = new int[count];
        for (int r = 0, at = from; r < count; r++, at += step) {
            int s = 0;
            for (int i = 3; i >= 0; i--) {
                s = s * q + (int) x[4 * at + i];
            }
            category[r] = s;
        }
        double[] chi = Reference.chiSquare(category, p);
        assertTrue(chi[0] < Reference.chiSquareCritical(chi[1]), what + ": chi2 " + chi[0] + " with " + chi[1] + " df");
    }

    @Test
    void baseDrawsAreUniformColours() {
        Potts model = new Potts(5, 6, 2);
        int count = 4097;
        try (TemperedKernel ops = Kernels.tempered(backend, model); ParticleMatrix x = backend.matrix(count, 36)) {
            ops.sampleBase(x, count, 3, 0);
            float[] s = backend.download(x, count);
            int[] category = new int[s.length];
            for (int e = 0; e < s.length; e++) {
                assertTrue(s[e] == Math.rint(s[e]) && s[e] >= 0 && s[e] < 5, "a colour of 0..4, got " + s[e]);
                category[e] = (int) s[e];
            }
            double[] chi = Reference.chiSquare(category, new double[] {0.2, 0.2, 0.2, 0.2, 0.2});
            assertTrue(chi[0] < Reference.chiSquareCritical(chi[1]), "chi2 " + chi[0]);
        }
    }

    @Test
    void logDensityAnnealingIncrementAndLevelsMatchTheHost() {
        Potts model = new Potts(4, 10, 1.5);
        int rows = 67;
        float[] x = randomColours(rows, 100, 4, 5);
        try (TemperedKernel ops = Kernels.tempered(backend, model); ParticleMatrix m = backend.matrix(70, 100);
             ParticleVector out = backend.vector(70); ParticleVector betas = backend.vector(3);
             ParticleVector f = backend.vector(3 * rows); ParticleVector d = backend.vector(3 * rows)) {
            backend.upload(x, rows, m);
            backend.fill(out, 0, 70, -7.0);
            ops.logDensity(m, rows, 0.37, out);
            double[] got = backend.download(out, 70);
            for (int r = 0; r < rows; r++) {
                assertEquals(0.37 * 1.5 * model.agreements(x, r * 100), got[r], 1e-9, "row " + r);
            }
            assertEquals(-7.0, got[rows], "entries past count are untouched");
            backend.fill(out, 0, 70, 1.0);
            ops.anneal(m, rows, 0.25, 0.75, out, 0, 9, 1);
            double[] inc = backend.download(out, rows);
            for (int r = 0; r < rows; r++) {
                assertEquals(1.0 + 0.5 * 1.5 * model.agreements(x, r * 100), inc[r], 1e-9, "row " + r);
            }
            assertArrayEquals(x, backend.download(m, rows), "no sweeps: states unchanged");
            backend.upload(new double[] {0, 0.5, 1}, betas);
            ops.levels(m, rows, betas, 3, f, d);
            double[] logF = backend.download(f, 3 * rows);
            double[] slope = backend.download(d, 3 * rows);
            for (int r = 0; r < rows; r++) {
                double js = 1.5 * model.agreements(x, r * 100);
                for (int k = 0; k < 3; k++) {
                    assertEquals(0.5 * k * js, logF[3 * r + k], 1e-9, "level " + k + " of row " + r);
                    assertEquals(js, slope[3 * r + k], 1e-9, "slope " + k + " of row " + r);
                }
            }
        }
    }

    @Test
    void heatBathLeavesTheExactDistributionInvariant() {
        assertInvariant(Potts.Moves.HEATBATH);
    }

    @Test
    void metropolisLeavesTheExactDistributionInvariant() {
        assertInvariant(Potts.Moves.METROPOLIS);
    }

    @Test
    void heatBathReachesTheTransferMatrixMeanAgreement() {
        assertMeanAgreement(Potts.Moves.HEATBATH);
    }

    @Test
    void metropolisReachesTheTransferMatrixMeanAgreement() {
        assertMeanAgreement(Potts.Moves.METROPOLIS);
    }

    /** From exact draws at two temperatures, sweeps at each chain's β keep the exact distribution, reversed ones too. */
    private void assertInvariant(Potts.Moves moves) {
        Potts model = new Potts(3, 2, 2.0, moves);
        int count = 20_001;
        double[] temperature = {0.2, 0.75};
        double[][] exact = {exactDistribution(model, temperature[0]), exactDistribution(model, temperature[1])};
        double[] betas = new double[count];
        for (int r = 0; r < count; r++) {
            betas[r] = temperature[r % 2];
        }
        try (TemperedKernel ops = Kernels.tempered(backend, model); ParticleMatrix x = backend.matrix(count, 4);
             ParticleVector b = backend.vector(count); ParticleVector lw = backend.vector(count)) {
            backend.upload(betas, b);
            backend.upload(exactDraws(count, 3, exact, 17), count, x);
            ops.transition(x, count, Betas.of(b), 3, 7, 1);
            float[] s = backend.download(x, count);
            for (int g = 0; g < 2; g++) {
                assertFollows(s, g, 2, (count - g + 1) / 2, 3, exact[g], moves + " sweeps at β=" + temperature[g]);
            }
            backend.upload(exactDraws(count, 3, new double[][] {exact[1]}, 18), count, x);
            ops.anneal(x, count, 0.95, 0.75, lw, 3, 7, 4);
            assertFollows(backend.download(x, count), 0, 1, count, 3, exact[1], moves + " reversed sweeps at β=0.75");
        }
    }

    /**
     * After 100 sweeps from the base, the mean agreement count of 4 × 4 three-colourings matches
     * {@code d log Z/d(β J)} of the transfer matrix (central difference, 1e-7 accurate) within 5 standard errors, on
     * both sides of the transition (β J = 1.005; here J = 2).
     */
    private void assertMeanAgreement(Potts.Moves moves) {
        Potts model = new Potts(3, 4, 2.0, moves);
        int count = 4001;
        for (double beta : new double[] {0.3, 0.65}) {
            double h = 1e-4;
            double exact = (PottsExact.logZ(3, 4, 2 * (beta + h)) - PottsExact.logZ(3, 4, 2 * (beta - h))) / (4 * h);
            try (TemperedKernel ops = Kernels.tempered(backend, model); ParticleMatrix x = backend.matrix(count, 16)) {
                ops.sampleBase(x, count, 5, 0);
                ops.transition(x, count, Betas.of(beta), 100, 5, 1);
                float[] s = backend.download(x, count);
                double sum = 0;
                double sumSq = 0;
                for (int r = 0; r < count; r++) {
                    int a = model.agreements(s, 16 * r);
                    sum += a;
                    sumSq += (double) a * a;
                }
                double mean = sum / count;
                double se = Math.sqrt((sumSq / count - mean * mean) / (count - 1));
                assertEquals(exact, mean, 5 * se, moves + " at β=" + beta + ": mean agreements " + mean + " ± " + se);
            }
        }
    }

    @Test
    void sweepsAreThreadCountIndependent() {
        assertThreadCountIndependent(new Potts(10, 6, 2), 131);
    }

    @Test
    void wrongShapesAndClosedOpsFailClearly() {
        LatticeKernelChecks.assertWrongShapesAndClosedOpsFail(backend, new Potts(3, 4, 1));
    }
}
