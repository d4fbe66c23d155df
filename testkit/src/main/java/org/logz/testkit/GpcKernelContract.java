package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.Kernels;
import org.logz.kernel.ParticleState;
import org.logz.kernel.SequentialKernel;
import org.logz.model.GpClassification;
import org.logz.numeric.Normal;
import org.logz.path.GpcSequence;
import org.logz.path.UnitOrder;

/**
 * The GP classifier's sequential kernel (ARM paper, Appendix A) on a backend: smoothing and the
 * conditional of the second case in closed form, augmentation draws from the right truncated normal,
 * the slice-sampled Gibbs sweep leaves {@code p_n} invariant, and the backend agrees with the scalar
 * reference (which inverts the precisions afresh instead of growing them).
 */
public abstract class GpcKernelContract extends BackendTest {
    private static final int PARTICLES = 4000;

    /** A 6-case problem with strong correlations (log ℓ = 0.3, log σ = 0.7) and mixed labels. */
    public static GpClassification problem() {
        double[][] x = {{0.1, -0.4}, {0.5, 0.2}, {-0.7, 0.9}, {1.2, -0.3}, {0.0, 0.8}, {-1.1, -0.6}};
        return GpClassification.squaredExponential(x, new int[] {1, -1, 1, 1, -1, -1}, 0.3, 0.7, "contract");
    }

    /**
     * {@code n} cases on the unit circle (log ℓ = log σ = 0), labelled by the sign of their second coordinate: more
     * cases than a GPU warp's tile of z holds (32), so that the device kernels stage each row in several tiles.
     */
    public static GpClassification circle(int n) {
        double[][] x = new double[n][];
        int[] labels = new int[n];
        for (int i = 0; i < n; i++) {
            double angle = 2 * Math.PI * i / n;
            x[i] = new double[] {Math.cos(angle), Math.sin(angle)};
            labels[i] = x[i][1] >= 0 ? 1 : -1;
        }
        return GpClassification.squaredExponential(x, labels, 0, 0, "contract circle");
    }

    private static GpcSequence sequence() {
        return new GpcSequence(problem(), UnitOrder.natural(6));
    }

    /**
     * Exact draws from {@code p_2} by augmenting case 0 then case 1; smoothing case 1 adds
     * {@code log Φ(y_1 m / σ)} with {@code m = Σ_10 z_0 / Σ_00}, {@code σ² = Σ_11 - Σ_10²/Σ_00}, and
     * the draws of case 0 have the truncated normal's mean {@code y_0 √(Σ_00) √(2/π)}.
     */
    @Test
    void smoothingAndAugmentationFollowAppendixA3() {
        GpClassification m = problem();
        double[] sigma = m.zCovariance();
        try (SequentialKernel kernel = Kernels.sequential(backend, sequence());
             ParticleMatrix z = backend.matrix(PARTICLES, 6); ParticleVector lw = backend.vector(PARTICLES)) {
            ParticleState state = new ParticleState(List.of(z));
            kernel.reset(state, 0, PARTICLES);
            kernel.augment(state, 0, 0, PARTICLES, 11, 1);
            float[] zs = backend.download(z, PARTICLES);
            double mean = 0;
            double square = 0;
            for (int r = 0; r < PARTICLES; r++) {
                double v = zs[r * 6];
                assertTrue(m.label(0) * v > 0, "row " + r + " has the sign of its label");
                mean += v / PARTICLES;
                square += v * v / PARTICLES;
            }
            double expected = m.label(0) * Math.sqrt(sigma[0]) * Math.sqrt(2 / Math.PI);
            double se = Math.sqrt((square - mean * mean) / PARTICLES);
            assertEquals(expected, mean, 5 * se, "mean of the truncated normal");
            backend.fill(lw, 0, PARTICLES, 0.5);
            kernel.smooth(state, 1, 2, PARTICLES - 2, lw);
            double[] got = backend.download(lw, PARTICLES);
            assertEquals(0.5, got[1], 0.0, "rows outside the range keep their weights");
            for (int r = 2; r < PARTICLES; r += 97) {
                double cm = sigma[1] / sigma[0] * zs[r * 6];
                double sd = Math.sqrt(sigma[7] - sigma[1] * sigma[1] / sigma[0]);
                assertClose(0.5 + Normal.logCdf(m.label(1) * cm / sd), got[r], "smoothing weight of row " + r);
            }
        }
    }

    /**
     * Sequential augmentation with its smoothing weights is a properly weighted sample of {@code p_4}
     * (ARM eq. 3), and a move that leaves {@code p_4} invariant keeps it one: two independent weighted
     * samples, one moved by five slice-sampled Gibbs sweeps, agree in the means and second moments of
     * the four cases within five standard errors (from each sample's effective size).
     */
    @Test
    void gibbsSweepsLeavePnInvariant() {
        try (SequentialKernel kernel = Kernels.sequential(backend, sequence());
             ParticleMatrix z = backend.matrix(PARTICLES, 6); ParticleVector lw = backend.vector(PARTICLES)) {
            double[][] weights = new double[2][];
            float[][] samples = new float[2][];
            for (int set = 0; set < 2; set++) {
                ParticleState state = new ParticleState(List.of(z));
                kernel.reset(state, 0, PARTICLES);
                backend.fill(lw, 0, PARTICLES, 0.0);
                for (int v = 0; v < 4; v++) {
                    kernel.smooth(state, v, 0, PARTICLES, lw);
                    kernel.augment(state, v, 0, PARTICLES, 21 + set, 1 + v);
                }
                if (set == 1) {
                    kernel.move(state, 4, 0, PARTICLES, 5, 23, 10);
                }
                weights[set] = backend.download(lw, PARTICLES);
                samples[set] = backend.download(z, PARTICLES);
            }
            for (int i = 0; i < 4; i++) {
                for (int power = 1; power <= 2; power++) {
                    double[] a = moments(samples[0], weights[0], i, power);
                    double[] b = moments(samples[1], weights[1], i, power);
                    assertEquals(a[0], b[0], 5 * Math.sqrt(a[1] + b[1]), "E[z_" + i + "^" + power + "] before and after the sweeps");
                }
                for (int r = 0; r < PARTICLES; r++) {
                    assertTrue(problem().label(i) * samples[1][r * 6 + i] >= 0, "z stays in its orthant");
                    assertEquals(0f, samples[1][r * 6 + 5], "cases not entered stay 0");
                }
            }
        }
    }

    /**
     * {@code log f_n}: with one case entered, {@code log N(z_0; 0, Σ_00)}; with two, the bivariate normal
     * density; a state outside its orthant is -∞.
     */
    @Test
    void logDensityIsTheTruncatedGaussian() {
        double[] sigma = problem().zCovariance();
        float[] z = new float[3 * 6];
        z[0] = 0.7f;
        z[6] = 0.4f;
        z[7] = -1.3f;
        z[12] = -0.2f;
        try (SequentialKernel kernel = Kernels.sequential(backend, sequence()); ParticleMatrix zm = backend.matrix(3, 6);
             ParticleVector out = backend.vector(3)) {
            backend.upload(z, 3, zm);
            kernel.logDensity(new ParticleState(List.of(zm)), 3, out);
            double[] got = backend.download(out, 3);
            assertClose(-0.5 * 0.7 * 0.7 / sigma[0] - 0.5 * Math.log(2 * Math.PI * sigma[0]), got[0], "one case");
            double det = sigma[0] * sigma[7] - sigma[1] * sigma[1];
            double a = 0.4;
            double b = -1.3;
            double quad = (sigma[7] * a * a - 2 * sigma[1] * a * b + sigma[0] * b * b) / det;
            assertClose(-0.5 * quad - Math.log(2 * Math.PI) - 0.5 * Math.log(det), got[1], "two cases");
            assertEquals(Double.NEGATIVE_INFINITY, got[2], "z_0 = -0.2 against the label +1");
        }
    }

    /** The same seeds give the same z on this backend and the reference, up to float rounding of μ. */
    @Test
    void agreesWithTheReference() {
        int rows = 130;
        float[][] out = new float[2][];
        ParticleBackend[] backends = {backend, reference};
        for (int b = 0; b < 2; b++) {
            try (SequentialKernel kernel = Kernels.sequential(backends[b], sequence());
                 ParticleMatrix z = backends[b].matrix(rows, 6); ParticleVector lw = backends[b].vector(rows)) {
                ParticleState state = new ParticleState(List.of(z));
                kernel.reset(state, 0, rows);
                backends[b].fill(lw, 0, rows, 0.0);
                for (int v = 0; v < 6; v++) {
                    kernel.smooth(state, v, 0, rows, lw);
                    kernel.augment(state, v, 0, rows, 31, 2 * v);
                    kernel.move(state, v + 1, 0, rows, 2, 32, 100 + 2 * v);
                }
                out[b] = backends[b].download(z, rows);
            }
        }
        for (int k = 0; k < out[0].length; k++) {
            assertEquals(out[1][k], out[0][k], 1e-4 * (1 + Math.abs(out[1][k])), "z entry " + k);
        }
    }

    /**
     * Smoothing and augmentation over 40 cases and 70 particles (a partial GPU warp) agree with the reference: every
     * case's conditional sums more cases than one of the device's staged tiles holds.
     */
    @Test
    void smoothingAndAugmentationAgreeWithTheReferenceOverManyCases() {
        int rows = 70;
        int n = 40;
        GpcSequence many = new GpcSequence(circle(n), UnitOrder.natural(n));
        float[][] z = new float[2][];
        double[][] logW = new double[2][];
        ParticleBackend[] backends = {backend, reference};
        for (int b = 0; b < 2; b++) {
            try (SequentialKernel kernel = Kernels.sequential(backends[b], many);
                 ParticleMatrix zm = backends[b].matrix(rows, n); ParticleVector lw = backends[b].vector(rows)) {
                ParticleState state = new ParticleState(List.of(zm));
                kernel.reset(state, 0, rows);
                backends[b].fill(lw, 0, rows, 0.0);
                for (int v = 0; v < n; v++) {
                    kernel.smooth(state, v, 0, rows, lw);
                    kernel.augment(state, v, 0, rows, 41, v);
                }
                z[b] = backends[b].download(zm, rows);
                logW[b] = backends[b].download(lw, rows);
            }
        }
        for (int k = 0; k < z[0].length; k++) {
            assertEquals(z[1][k], z[0][k], 1e-4 * (1 + Math.abs(z[1][k])), "z entry " + k);
        }
        for (int r = 0; r < rows; r++) {
            assertTrue(Double.isFinite(logW[1][r]), "the reference's weight of row " + r);
            assertEquals(logW[1][r], logW[0][r], 1e-6 * (1 + Math.abs(logW[1][r])), "log weight of row " + r);
        }
    }

    /** {weighted mean, its variance from the effective sample size} of z_i^power. */
    private static double[] moments(float[] z, double[] logW, int i, int power) {
        double max = java.util.Arrays.stream(logW).max().orElseThrow();
        double total = 0;
        double totalSquares = 0;
        double mean = 0;
        double square = 0;
        for (int r = 0; r < PARTICLES; r++) {
            double w = Math.exp(logW[r] - max);
            double v = Math.pow(z[r * 6 + i], power);
            total += w;
            totalSquares += w * w;
            mean += w * v;
            square += w * v * v;
        }
        mean /= total;
        double ess = total * total / totalSquares;
        return new double[] {mean, (square / total - mean * mean) / ess};
    }
}
