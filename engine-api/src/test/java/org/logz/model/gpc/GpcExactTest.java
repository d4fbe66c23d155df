package org.logz.model.gpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;
import org.logz.model.GpClassification;

class GpcExactTest {
    /** n = 1 is 1/2 for any prior variance; K = 0 is 2^-n. */
    @Test
    void trivialCases() {
        assertEquals(Math.log(0.5), GpcExact.logZ(new GpClassification(new double[] {7.5}, new int[] {-1}, "one")), 1e-15);
        assertEquals(-5 * Math.log(2), GpcExact.logZ(new GpClassification(new double[25], new int[] {1, -1, 1, 1, -1},
                "zero")), 1e-15);
    }

    /**
     * n = 2 and n = 3 against a direct quadrature of the orthant probability: z_1 integrated on a fine
     * grid of its truncated normal, the rest conditionally Gaussian in closed form (n = 2) or by
     * Sheppard's formula on the conditional pair (n = 3). Agreement to 1e-9.
     */
    @Test
    void closedFormsMatchQuadrature() {
        Random random = new Random(5);
        for (int trial = 0; trial < 6; trial++) {
            int n = 2 + trial % 2;
            double[][] x = new double[n][2];
            int[] y = new int[n];
            for (int i = 0; i < n; i++) {
                x[i][0] = random.nextGaussian();
                x[i][1] = random.nextGaussian();
                y[i] = random.nextBoolean() ? 1 : -1;
            }
            GpClassification m = GpClassification.squaredExponential(x, y, random.nextGaussian(), random.nextGaussian(), "t");
            assertEquals(Math.log(quadrature(m)), GpcExact.logZ(m), 1e-9, "trial " + trial);
        }
    }

    @Test
    void largerProblemsHaveNoClosedForm() {
        GpClassification m = GpClassification.squaredExponential(new double[][] {{0}, {1}, {2}, {3}}, new int[] {1, 1, -1, 1},
                0, 0, "four");
        assertThrows(UserException.class, () -> GpcExact.logZ(m));
    }

    /** P(y_i z_i > 0 ∀ i), z ~ N(0, K + I), by conditioning on z_1 (Simpson's rule over its half-line). */
    private static double quadrature(GpClassification m) {
        int n = m.size();
        double[] s = m.zCovariance();
        double s11 = s[0];
        int steps = n == 2 ? 20_000 : 2_000;
        double upper = 12 * Math.sqrt(s11);
        double h = upper / steps;
        double sum = 0;
        for (int k = 0; k <= steps; k++) {
            double z1 = m.label(0) * k * h;
            double weight = (k == 0 || k == steps) ? 1 : (k % 2 == 1 ? 4 : 2);
            double density = Math.exp(-0.5 * z1 * z1 / s11) / Math.sqrt(2 * Math.PI * s11);
            sum += weight * density * conditional(s, n, m, z1);
        }
        return sum * h / 3;
    }

    /** P(y_i z_i > 0 for i ≥ 2 | z_1). */
    private static double conditional(double[] s, int n, GpClassification m, double z1) {
        double s11 = s[0];
        double[] mean = new double[n];
        double[][] cov = new double[n][n];
        for (int i = 1; i < n; i++) {
            mean[i] = s[i * n] / s11 * z1;
            for (int j = 1; j < n; j++) {
                cov[i][j] = s[i * n + j] - s[i * n] * s[j * n] / s11;
            }
        }
        if (n == 2) {
            return org.logz.numeric.Normal.cdf(m.label(1) * mean[1] / Math.sqrt(cov[1][1]));
        }
        // the second variable over its allowed half-line, the third in closed form given both
        double sd2 = Math.sqrt(cov[1][1]);
        double reach = Math.abs(mean[1]) + 12 * sd2;
        int steps = 2_000;
        double h = reach / steps;
        double sum = 0;
        for (int k = 0; k <= steps; k++) {
            double z2 = m.label(1) * k * h;
            double u = z2 - mean[1];
            double weight = (k == 0 || k == steps) ? 1 : (k % 2 == 1 ? 4 : 2);
            double density = Math.exp(-0.5 * u * u / cov[1][1]) / (Math.sqrt(2 * Math.PI) * sd2);
            double m3 = mean[2] + cov[2][1] / cov[1][1] * u;
            double v3 = cov[2][2] - cov[2][1] * cov[2][1] / cov[1][1];
            sum += weight * density * org.logz.numeric.Normal.cdf(m.label(2) * m3 / Math.sqrt(v3));
        }
        return sum * h / 3;
    }
}
