package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.logz.backend.Betas;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.toy.GaussianToy;

/**
 * The contract of the Gaussian toy{@literal '}s {@link TemperedKernel}: base draws with the base moments, log densities and
 * annealing increments against the closed form, and kernels that keep {@code p_β} invariant.
 */
public abstract class GaussianToyKernelContract extends BackendTest {
    private static final GaussianToy TOY = GaussianToy.habeck();

    /** Mean and variance within 5 standard errors of N(μ, σ²). */
    private static void assertMoments(float[] x, double mu, double sigma, String what) {
        int n = x.length;
        double mean = 0;
        for (float v : x) {
            mean += v / (double) n;
        }
        double var = 0;
        for (float v : x) {
            var += (v - mean) * (v - mean) / (n - 1);
        }
        assertEquals(mu, mean, 5 * sigma / Math.sqrt(n), what + ": mean");
        assertEquals(sigma * sigma, var, 5 * sigma * sigma * Math.sqrt(2.0 / (n - 1)), what + ": variance");
    }

    @Test
    void baseDrawsHaveTheBaseMoments() {
        int count = 8001;
        try (TemperedKernel ops = Kernels.tempered(backend, TOY); ParticleMatrix x = backend.matrix(count, 1)) {
            ops.sampleBase(x, count, 3, 0);
            assertMoments(backend.download(x, count), TOY.mu0(), TOY.sigma0(), "base");
        }
    }

    @Test
    void logDensityAndAnnealingIncrementMatchTheClosedForm() {
        float[] x = {-3.5f, 0f, 1.25f, 19f, 40f, -0.001f, 7f};
        try (TemperedKernel ops = Kernels.tempered(backend, TOY); ParticleMatrix m = backend.matrix(9, 1);
             ParticleVector out = backend.vector(9)) {
            backend.upload(x, x.length, m);
            backend.fill(out, 0, 9, -7.0);
            ops.logDensity(m, x.length, 0.3, out);
            double[] got = backend.download(out, 9);
            for (int r = 0; r < x.length; r++) {
                assertEquals(TOY.logDensity(0.3, x[r]), got[r], 1e-12 * (1 + Math.abs(got[r])), "x=" + x[r]);
            }
            assertEquals(-7.0, got[x.length]);
            backend.fill(out, 0, 9, 1.0);
            ops.anneal(m, x.length, 0.3, 0.8, out, 0, 1, 1);
            double[] inc = backend.download(out, x.length);
            for (int r = 0; r < x.length; r++) {
                double expected = 1.0 + TOY.logDensity(0.8, x[r]) - TOY.logDensity(0.3, x[r]);
                assertEquals(expected, inc[r], 1e-12 * (1 + Math.abs(expected)), "x=" + x[r]);
            }
            assertArrayEquals(x, backend.download(m, x.length), "no transition: states unchanged");
        }
    }

    /** Level evaluations: log f at every level and the slope (x - μ0)²/(2σ0²) - (x - μ1)²/(2σ1²). */
    @Test
    void levelsAreTheLogDensitiesAndTheSlope() {
        float[] x = {-3.5f, 0f, 19f, 40f, 7f};
        double[] betas = {0, 0.3, 1};
        int n = x.length;
        try (TemperedKernel ops = Kernels.tempered(backend, TOY); ParticleMatrix m = backend.matrix(n, 1);
             ParticleVector levelBetas = backend.vector(3); ParticleVector logF = backend.vector(3 * n);
             ParticleVector slope = backend.vector(3 * n)) {
            backend.upload(x, n, m);
            backend.upload(betas, levelBetas);
            ops.levels(m, n, levelBetas, 3, logF, slope);
            double[] f = backend.download(logF, 3 * n);
            double[] d = backend.download(slope, 3 * n);
            for (int r = 0; r < n; r++) {
                double expected = Math.pow(x[r] - TOY.mu0(), 2) / (2 * TOY.sigma0() * TOY.sigma0())
                        - Math.pow(x[r] - TOY.mu1(), 2) / (2 * TOY.sigma1() * TOY.sigma1());
                for (int k = 0; k < 3; k++) {
                    double lf = TOY.logDensity(betas[k], x[r]);
                    assertEquals(lf, f[r * 3 + k], 1e-12 * (1 + Math.abs(lf)), "log f, x=" + x[r] + ", β=" + betas[k]);
                    assertEquals(expected, d[r * 3 + k], 1e-12 * (1 + Math.abs(expected)), "slope, x=" + x[r]);
                }
            }
        }
    }

    @Test
    void kernelsLeaveTheirBridgeDistributionInvariant() {
        int count = 20_001;
        double beta = 0.6;
        try (TemperedKernel ops = Kernels.tempered(backend, TOY); ParticleMatrix x = backend.matrix(count, 1);
             ParticleVector lw = backend.vector(count)) {
            float[] exact = new float[count];
            float[] unit = TOY.exactTargetSamples(count, 5).orElseThrow();
            for (int r = 0; r < count; r++) {
                exact[r] = (float) (TOY.mean(beta) + TOY.sigma(beta) * (unit[r] - TOY.mu1()) / TOY.sigma1());
            }
            backend.upload(exact, count, x);
            ops.transition(x, count, Betas.of(beta), 3, 5, 1);
            assertMoments(backend.download(x, count), TOY.mean(beta), TOY.sigma(beta), "after 3 kernel steps at β=0.6");
            ops.anneal(x, count, beta, 0.7, lw, 1, 5, 4);
            ops.transition(x, count, Betas.of(0.7), 200, 5, 5);
            assertMoments(backend.download(x, count), TOY.mean(0.7), TOY.sigma(0.7), "annealed to β=0.7");
        }
    }

    @Test
    void wrongShapesAndClosedOpsFailClearly() {
        TemperedKernel ops = Kernels.tempered(backend, TOY);
        try (ParticleMatrix wrong = backend.matrix(3, 2)) {
            assertThrows(IllegalArgumentException.class, () -> ops.sampleBase(wrong, 3, 1, 0));
        }
        try (TemperedKernel open = Kernels.tempered(backend, TOY)) {
            ParticleMatrix closed = backend.matrix(3, 1);
            closed.close();
            assertThrows(IllegalStateException.class, () -> open.sampleBase(closed, 3, 1, 0), "a closed matrix");
        }
        ops.close();
        try (ParticleMatrix x = backend.matrix(3, 1)) {
            assertThrows(IllegalStateException.class, () -> ops.sampleBase(x, 3, 1, 0));
        }
    }
}
