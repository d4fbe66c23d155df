package org.logz.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class CholeskyTest {
    /** max |a - F Fᵀ|. */
    private static double residual(double[] a, Cholesky.Factor f) {
        int n = f.n();
        double worst = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double s = a[i * n + j];
                for (int q = 0; q < f.rank(); q++) {
                    s -= f.at(i, q) * f.at(j, q);
                }
                worst = Math.max(worst, Math.abs(s));
            }
        }
        return worst;
    }

    @Test
    void pivotedFactorOfAFullRankMatrixHasFullRank() {
        int n = 7;
        double[] a = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a[i * n + j] = Math.exp(-0.3 * (i - j) * (i - j)) + (i == j ? 0.1 : 0);
            }
        }
        Cholesky.Factor f = Cholesky.pivoted(a, n, 1e-14);
        assertEquals(n, f.rank());
        assertEquals(0, residual(a, f), 1e-14);
    }

    @Test
    void pivotedFactorOfASingularMatrixHasItsRank() {
        int n = 6;
        double[][] v = {{1, 2, 0, -1, 3, 0.5}, {0.3, -1, 2, 2, 0, 1}};
        double[] a = new double[n * n];
        for (double[] u : v) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    a[i * n + j] += u[i] * u[j];
                }
            }
        }
        Cholesky.Factor f = Cholesky.pivoted(a, n, 1e-12);
        assertEquals(2, f.rank());
        assertEquals(0, residual(a, f), 1e-12);
        assertEquals(0, Cholesky.pivoted(new double[9], 3, 0).rank(), "the zero matrix has rank 0");
    }

    @Test
    void indefiniteMatricesHaveNoPivotedFactor() {
        assertNull(Cholesky.pivoted(new double[] {0, 1, 1, 0}, 2, 1e-12), "zero diagonal, non-zero off-diagonal");
        assertNull(Cholesky.pivoted(new double[] {1, 2, 2, 1}, 2, 1e-12), "a negative eigenvalue");
        assertNull(Cholesky.pivoted(new double[] {-1, 0, 0, 1}, 2, 1e-12), "a negative diagonal");
        // found by review: positive semi-definite but for rounding (an eigenvalue of -3e-16 relative) is accepted
        double[] rounded = {1, 1, 1, 1 - 3e-16};
        assertEquals(1, Cholesky.pivoted(rounded, 2, 2 * Math.ulp(1.0)).rank());
    }
}
