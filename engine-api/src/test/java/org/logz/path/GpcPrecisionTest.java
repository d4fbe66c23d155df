package org.logz.path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.logz.model.GpClassification;
import org.logz.numeric.Cholesky;

class GpcPrecisionTest {
    private static GpClassification problem(int n, double logSigma) {
        Random random = new Random(4);
        double[][] x = new double[n][3];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            for (int f = 0; f < 3; f++) {
                x[i][f] = random.nextGaussian();
            }
            y[i] = random.nextBoolean() ? 1 : -1;
        }
        return GpClassification.squaredExponential(x, y, 0.5, logSigma, "random");
    }

    /** The grown S^(m) and log |Σ_[m]| equal a fresh inverse and determinant; the previous size is kept. */
    @Test
    void growthMatchesAFreshInverse() {
        GpClassification m = problem(60, 1);
        GpcPrecision p = new GpcPrecision(m.zCovariance(), 60);
        double[] s60 = p.at(60).clone();
        assertMatches(fresh(m, 60), s60, 1e-8);
        assertMatches(fresh(m, 59), p.at(59), 1e-8);
        assertEquals(logDet(m, 59), p.logDet(59), 1e-9);
        assertEquals(logDet(m, 60), p.logDet(60), 1e-9);
        assertMatches(fresh(m, 17), p.at(17), 1e-8);
    }

    /**
     * With a large signal variance the growth drifts (the Schur complement cancels); the guard checks
     * more often, re-factorizes, and leaves S within its limit of a fresh inverse.
     */
    @Test
    void driftIsCaughtAndRepaired() {
        GpClassification m = problem(120, 7);
        GpcPrecision p = new GpcPrecision(m.zCovariance(), 120);
        double[] s = p.at(120);
        assertTrue(p.refactorizations() > 0, "the guard re-factorized");
        assertTrue(p.maxDrift() > GpcPrecision.DRIFT_LIMIT, "the growth drifted: " + p.maxDrift());
        assertMatches(fresh(m, 120), s, 10 * GpcPrecision.DRIFT_LIMIT);
        assertTrue(p.conditionEstimate() > 1e6, "σ² = e^14 makes K + I ill-conditioned: " + p.conditionEstimate());
    }

    private static void assertMatches(double[] expected, double[] actual, double relative) {
        double scale = 0;
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            scale = Math.max(scale, Math.abs(expected[i]));
            worst = Math.max(worst, Math.abs(expected[i] - actual[i]));
        }
        assertTrue(worst <= relative * scale, "largest difference " + worst + " against a scale of " + scale);
    }

    private static double[] block(GpClassification m, int k) {
        double[] sigma = m.zCovariance();
        int n = m.size();
        double[] b = new double[k * k];
        for (int i = 0; i < k; i++) {
            System.arraycopy(sigma, i * n, b, i * k, k);
        }
        return b;
    }

    private static double logDet(GpClassification m, int k) {
        double[] l = Cholesky.lower(block(m, k), k);
        double d = 0;
        for (int i = 0; i < k; i++) {
            d += 2 * Math.log(l[i * k + i]);
        }
        return d;
    }

    /** Σ_[k]⁻¹ by Gauss-Jordan elimination (a third way, independent of both Cholesky routes). */
    private static double[] fresh(GpClassification m, int k) {
        double[] a = block(m, k);
        double[] inv = new double[k * k];
        for (int i = 0; i < k; i++) {
            inv[i * k + i] = 1;
        }
        for (int c = 0; c < k; c++) {
            int pivot = c;
            for (int r = c + 1; r < k; r++) {
                if (Math.abs(a[r * k + c]) > Math.abs(a[pivot * k + c])) {
                    pivot = r;
                }
            }
            for (int j = 0; j < k; j++) {
                double t = a[c * k + j];
                a[c * k + j] = a[pivot * k + j];
                a[pivot * k + j] = t;
                t = inv[c * k + j];
                inv[c * k + j] = inv[pivot * k + j];
                inv[pivot * k + j] = t;
            }
            double d = a[c * k + c];
            for (int j = 0; j < k; j++) {
                a[c * k + j] /= d;
                inv[c * k + j] /= d;
            }
            for (int r = 0; r < k; r++) {
                if (r != c) {
                    double f = a[r * k + c];
                    for (int j = 0; j < k; j++) {
                        a[r * k + j] -= f * a[c * k + j];
                        inv[r * k + j] -= f * inv[c * k + j];
                    }
                }
            }
        }
        return inv;
    }
}
