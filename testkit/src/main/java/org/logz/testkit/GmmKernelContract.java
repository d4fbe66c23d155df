package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.HmcSettings;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.gmm.GaussianMixture;

/**
 * The contract of HMC on the Gaussian mixture (DESIGN §5, "HMC"): log densities and slopes against the closed form,
 * transitions that keep p_β invariant (a Gaussian at β &lt; 1, both modes' weights and widths at β = 1, from exact
 * samples), per-particle temperatures, a gradient good enough that tiny steps are nearly always accepted, step sizes
 * that adapt towards the target acceptance, and the reference backend's trajectories.
 */
public abstract class GmmKernelContract extends BackendTest {
    private static final HmcSettings FIXED = new HmcSettings(10, 0.2, false, 0.65, true);

    /** Two dimensions, modes 6 apart of widths 1 and 0.6, weight 0.4, base N(0, 2²I). */
    private static GaussianMixture mixture(HmcSettings hmc) {
        return new GaussianMixture(2, 6, 1, 0.6, 0.4, 2, hmc);
    }

    /** Mean and variance within 5 standard errors of N(μ, σ²). */
    private static void assertMoments(double[] v, double mu, double sigma, String what) {
        int n = v.length;
        double mean = Arrays.stream(v).average().orElseThrow();
        double var = Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum() / (n - 1);
        assertEquals(mu, mean, 5 * sigma / Math.sqrt(n), what + ": mean");
        assertEquals(sigma * sigma, var, 5 * sigma * sigma * Math.sqrt(2.0 / (n - 1)), what + ": variance");
    }

    @Test
    void logDensitiesAndSlopesMatchTheClosedForm() {
        GaussianMixture m = mixture(FIXED);
        float[] x = {0f, 0f, 2.1f, 2.1f, -2.1f, -2.0f, 9f, -7f, 0.3f, 40f};
        int n = x.length / 2;
        double[] betas = {0, 0.37, 1};
        try (TemperedKernel k = Kernels.tempered(backend, m); ParticleMatrix xm = backend.matrix(n, 2);
             ParticleVector out = backend.vector(n); ParticleVector lb = backend.vector(3);
             ParticleVector logF = backend.vector(3 * n); ParticleVector slope = backend.vector(3 * n)) {
            backend.upload(x, n, xm);
            backend.upload(betas, lb);
            k.levels(xm, n, lb, 3, logF, slope);
            double[] f = backend.download(logF, 3 * n);
            double[] s = backend.download(slope, 3 * n);
            for (int r = 0; r < n; r++) {
                double[] v = {x[2 * r], x[2 * r + 1]};
                double base = -(v[0] * v[0] + v[1] * v[1]) / 8;
                double c = 3 / Math.sqrt(2);
                double target = Math.log(0.4 * Math.exp(-((v[0] - c) * (v[0] - c) + (v[1] - c) * (v[1] - c)) / 2)
                        + 0.6 * Math.exp(-((v[0] + c) * (v[0] + c) + (v[1] + c) * (v[1] + c)) / (2 * 0.36)));
                for (int l = 0; l < 3; l++) {
                    double expected = (1 - betas[l]) * base + betas[l] * target;
                    assertEquals(expected, f[r * 3 + l], 1e-9 * (1 + Math.abs(expected)), "log f, row " + r);
                    assertEquals(target - base, s[r * 3 + l], 1e-9 * (1 + Math.abs(target)), "slope, row " + r);
                }
            }
            k.logDensity(xm, n, 0.37, out);
            double[] got = backend.download(out, n);
            for (int r = 0; r < n; r++) {
                assertEquals(f[r * 3 + 1], got[r], 1e-12 * (1 + Math.abs(got[r])), "logDensity, row " + r);
            }
        }
    }

    /** At β = 0.5 with both modes at the origin and width 1, p_β is N(0, 1/((1-β)/s0² + β)) in each coordinate. */
    @Test
    void transitionsKeepAGaussianTemperedTargetInvariant() {
        GaussianMixture m = new GaussianMixture(2, 0, 1, 1, 0.5, 2, FIXED);
        int count = 4000;
        double beta = 0.5;
        double sigma = 1 / Math.sqrt((1 - beta) / 4 + beta);
        float[] start = m.exactTargetSamples(count, 3).orElseThrow();
        for (int i = 0; i < start.length; i++) {
            start[i] *= (float) sigma;
        }
        try (TemperedKernel k = Kernels.tempered(backend, m); ParticleMatrix x = backend.matrix(count, 2)) {
            backend.upload(start, count, x);
            k.transition(x, count, Betas.of(beta), 20, 7, 0);
            float[] after = backend.download(x, count);
            for (int c = 0; c < 2; c++) {
                assertMoments(column(after, 2, c), 0, sigma, "coordinate " + c + " after 20 transitions at β = 0.5");
            }
            assertTrue(HmcChecks.moved(start, after, 2) > 0.95 * count, "the chains move");
        }
    }

    /** At β = 1 from exact samples: each mode keeps its weight and width after adaptive transitions. */
    @Test
    void transitionsKeepTheMixtureInvariant() {
        GaussianMixture m = mixture(HmcSettings.defaults());
        int count = 4000;
        float[] start = m.exactTargetSamples(count, 5).orElseThrow();
        try (TemperedKernel k = Kernels.tempered(backend, m); ParticleMatrix x = backend.matrix(count, 2)) {
            backend.upload(start, count, x);
            for (int call = 0; call < 5; call++) {
                k.transition(x, count, Betas.of(1.0), 4, 11, 4 * call);
            }
            float[] after = backend.download(x, count);
            double massFirst = 0.4 / (0.4 + 0.6 * 0.36);
            double c = 3 / Math.sqrt(2);
            double[][] byMode = {new double[count], new double[count]};
            int[] n = new int[2];
            for (int r = 0; r < count; r++) {
                int mode = after[2 * r] + after[2 * r + 1] > 0 ? 0 : 1;
                byMode[mode][n[mode]++] = after[2 * r] - (mode == 0 ? c : -c);
            }
            assertEquals(massFirst, n[0] / (double) count, 5 * Math.sqrt(massFirst * (1 - massFirst) / count), "first mode's weight");
            assertMoments(Arrays.copyOf(byMode[0], n[0]), 0, 1, "first mode");
            assertMoments(Arrays.copyOf(byMode[1], n[1]), 0, 0.6, "second mode");
            assertTrue(HmcChecks.moved(start, after, 2) > 0.9 * count, "the chains move");
        }
    }

    /**
     * A wrong gradient would make the leapfrog's energy error first order in ε: with ε = 0.02 and L = 20 a correct one
     * leaves |ΔH| ~ 1e-3 and nearly every proposal is accepted.
     */
    @Test
    void smallStepsAreNearlyAlwaysAccepted() {
        GaussianMixture m = new GaussianMixture(5, 4, 1, 0.5, 0.5, 2, new HmcSettings(20, 0.02, false, 0.65, false));
        int count = 1000;
        float[] start = m.exactTargetSamples(count, 9).orElseThrow();
        try (TemperedKernel k = Kernels.tempered(backend, m); ParticleMatrix x = backend.matrix(count, 5)) {
            backend.upload(start, count, x);
            k.transition(x, count, Betas.of(0.8), 1, 13, 0);
            assertTrue(HmcChecks.moved(start, backend.download(x, count), 5) >= 0.99 * count, "accepted nearly always");
        }
    }

    /** Rows at per-particle β are the rows of uniform calls at their β (one call: the same ε for both). */
    @Test
    void perParticleTemperaturesAreTheRowsOfUniformCalls() {
        GaussianMixture m = mixture(HmcSettings.defaults());
        int count = 40;
        double[] betas = new double[count];
        for (int r = 0; r < count; r++) {
            betas[r] = r % 2 == 0 ? 0.25 : 1.0;
        }
        float[] start = m.exactTargetSamples(count, 2).orElseThrow();
        float[][] uniform = new float[2][];
        for (int u = 0; u < 2; u++) {
            try (TemperedKernel k = Kernels.tempered(backend, m); ParticleMatrix x = backend.matrix(count, 2)) {
                backend.upload(start, count, x);
                k.transition(x, count, Betas.of(u == 0 ? 0.25 : 1.0), 3, 4, 1);
                uniform[u] = backend.download(x, count);
            }
        }
        try (TemperedKernel k = Kernels.tempered(backend, m); ParticleMatrix x = backend.matrix(count, 2);
             ParticleVector b = backend.vector(count)) {
            backend.upload(start, count, x);
            backend.upload(betas, b);
            k.transition(x, count, Betas.of(b), 3, 4, 1);
            float[] mixed = backend.download(x, count);
            for (int r = 0; r < count; r++) {
                assertArrayEquals(Arrays.copyOfRange(uniform[r % 2], 2 * r, 2 * r + 2), Arrays.copyOfRange(mixed, 2 * r, 2 * r + 2),
                        "row " + r + " at β " + betas[r]);
            }
        }
    }

    /**
     * ε = 3 accepts rarely; adapted, the last 10 of 30 calls accept 0.65 ± 0.1 on average (jittered L: a fixed L on a
     * Gaussian makes the acceptance resonate in ε); fixed, it stays rare.
     */
    @Test
    void stepSizesAdaptTowardsTheTargetAcceptance() {
        int count = 2000;
        for (boolean adapt : new boolean[] {true, false}) {
            GaussianMixture m = new GaussianMixture(5, 0, 1, 1, 0.5, 2, new HmcSettings(5, 3, adapt, 0.65, true));
            float[] start = m.exactTargetSamples(count, 1).orElseThrow();
            try (TemperedKernel k = Kernels.tempered(backend, m); ParticleMatrix x = backend.matrix(count, 5)) {
                backend.upload(start, count, x);
                double rate = 0;
                for (int call = 0; call < 30; call++) {
                    float[] before = backend.download(x, count);
                    k.transition(x, count, Betas.of(1.0), 1, 17, call);
                    if (call >= 20) {
                        rate += HmcChecks.moved(before, backend.download(x, count), 5) / (10.0 * count);
                    }
                }
                if (adapt) {
                    assertEquals(0.65, rate, 0.1, "acceptance after adaptation");
                } else {
                    assertTrue(rate < 0.2, "fixed ε = 3 accepts rarely: " + rate);
                }
            }
        }
    }

    /** With a fixed ε a batch from chain a is those chains of the whole batch; adaptive kernels refuse a part. */
    @Test
    void fixedStepChainsSplitAndAdaptiveOnesRunAsOneBatch() {
        GaussianMixture m = mixture(FIXED);
        float[][] runs = new float[2][];
        for (int part = 0; part < 2; part++) {
            int first = part == 0 ? 0 : 64;
            int count = part == 0 ? 100 : 36;
            try (TemperedKernel k = Kernels.tempered(backend, m); ParticleMatrix x = backend.matrix(count, 2);
                 ParticleVector lw = backend.vector(count)) {
                backend.fill(lw, 0, count, 0.0);
                k.sampleBase(x, count, 3, 0, first);
                k.anneal(x, count, 0, 0.6, lw, 2, 3, 1, first);
                runs[part] = backend.download(x, count);
            }
        }
        assertArrayEquals(Arrays.copyOfRange(runs[0], 128, 200), runs[1]);
        try (TemperedKernel k = Kernels.tempered(backend, mixture(HmcSettings.defaults()));
             ParticleMatrix x = backend.matrix(4, 2)) {
            assertThrows(UnsupportedOperationException.class, () -> k.sampleBase(x, 4, 3, 0, 64));
        }
    }

    /** The backend's chains are the reference's: same draws, same ε sequence, to rounding (a rare flip allowed). */
    @Test
    void trajectoriesAreTheReferences() {
        HmcChecks.assertTrajectoriesAgree(backend, reference, mixture(HmcSettings.defaults()), 300, 10);
    }

    private static double[] column(float[] x, int d, int c) {
        double[] out = new double[x.length / d];
        for (int r = 0; r < out.length; r++) {
            out[r] = x[r * d + c];
        }
        return out;
    }
}
