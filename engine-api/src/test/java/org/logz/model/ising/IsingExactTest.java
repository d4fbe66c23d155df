package org.logz.model.ising;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.logz.numeric.LogSpace;

class IsingExactTest {
    private static final double[] BETAS = {0.05, 0.3, 0.4406868, 0.6, 1.0, 2.5};

    /** Σ over all 2^{L²} configurations of exp(β S(x)). */
    private static double bruteForce(int l, double beta) {
        Ising model = new Ising(l);
        int n = l * l;
        double[] terms = new double[1 << n];
        float[] x = new float[n];
        for (int s = 0; s < terms.length; s++) {
            for (int i = 0; i < n; i++) {
                x[i] = (s >>> i & 1) == 1 ? 1f : -1f;
            }
            terms[s] = beta * model.coupling(x, 0);
        }
        return LogSpace.logSumExp(terms);
    }

    /**
     * Row-to-row transfer matrix on the L-column cylinder closed into a torus: {@code Z = tr T^L},
     * {@code T_{s,t} = exp(β (E_row(s) + E_bond(s, t)))}, with every product rescaled to stay in range.
     */
    private static double transferMatrix(int l, double beta) {
        int states = 1 << l;
        double[][] t = new double[states][states];
        for (int s = 0; s < states; s++) {
            for (int u = 0; u < states; u++) {
                double e = 0;
                for (int c = 0; c < l; c++) {
                    e += spin(s, c) * spin(s, (c + 1) % l) + spin(s, c) * spin(u, c);
                }
                t[s][u] = Math.exp(beta * e);
            }
        }
        double[][] power = t;
        double logScale = 0;
        for (int i = 1; i < l; i++) {
            power = multiply(power, t);
            double max = 0;
            for (double[] row : power) {
                for (double v : row) {
                    max = Math.max(max, v);
                }
            }
            for (double[] row : power) {
                for (int j = 0; j < states; j++) {
                    row[j] /= max;
                }
            }
            logScale += Math.log(max);
        }
        double trace = 0;
        for (int s = 0; s < states; s++) {
            trace += power[s][s];
        }
        return logScale + Math.log(trace);
    }

    private static int spin(int state, int c) {
        return (state >>> c & 1) == 1 ? 1 : -1;
    }

    private static double[][] multiply(double[][] a, double[][] b) {
        int n = a.length;
        double[][] c = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < n; k++) {
                for (int j = 0; j < n; j++) {
                    c[i][j] += a[i][k] * b[k][j];
                }
            }
        }
        return c;
    }

    @Test
    void matchesBruteForceOnTheTwoAndFourTorus() {
        for (int l : new int[] {2, 4}) {
            for (double beta : BETAS) {
                double exact = bruteForce(l, beta);
                assertEquals(exact, IsingExact.logZ(new Ising(l), beta), 1e-9 * Math.abs(exact),
                        "L=" + l + " β=" + beta);
            }
        }
    }

    @Test
    void matchesTheTransferMatrixOnTheSixTorus() {
        for (double beta : BETAS) {
            double exact = transferMatrix(6, beta);
            assertEquals(exact, IsingExact.logZ(new Ising(6), beta), 1e-9 * Math.abs(exact), "L=6 β=" + beta);
        }
    }

    @Test
    void transferMatrixAgreesWithBruteForce() {
        assertEquals(bruteForce(4, 0.37), transferMatrix(4, 0.37), 1e-9);
    }

    /** Habeck (2017, §6.1): log Z = 1339.27 for the 32 × 32 torus at β = 1, relative to the uniform base. */
    @Test
    void reproducesThePublishedValueForThe32Torus() {
        double logZ = IsingExact.logZ(new Ising(32), 1.0) - 1024 * Math.log(2);
        assertEquals(1339.2671, logZ, 5e-5);
    }

    @Test
    void rejectsNonPositiveOrNonFiniteBeta() {
        assertThrows(IllegalArgumentException.class, () -> IsingExact.logZ(new Ising(4), 0));
        assertThrows(IllegalArgumentException.class, () -> IsingExact.logZ(new Ising(4), Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new Ising(5));
    }
}
