package org.logz.numeric;

/** The Cholesky factorization of a dense symmetric matrix, row-major, in float64. */
public final class Cholesky {
    private Cholesky() {
    }

    /**
     * The lower factor L with {@code L Lᵀ = a} of the n × n matrix {@code a} (read only, its lower
     * triangle), or null when a pivot is not positive (a is not positive definite).
     */
    public static double[] lower(double[] a, int n) {
        double[] l = new double[n * n];
        for (int j = 0; j < n; j++) {
            double d = a[j * n + j];
            for (int q = 0; q < j; q++) {
                d -= l[j * n + q] * l[j * n + q];
            }
            if (!(d > 0)) {
                return null;
            }
            double ljj = Math.sqrt(d);
            l[j * n + j] = ljj;
            for (int i = j + 1; i < n; i++) {
                double s = a[i * n + j];
                for (int q = 0; q < j; q++) {
                    s -= l[i * n + q] * l[j * n + q];
                }
                l[i * n + j] = s / ljj;
            }
        }
        return l;
    }

    /** Column {@code column} of {@code (L Lᵀ)⁻¹} by forward and back substitution on the lower factor {@code l}. */
    public static double[] inverseColumn(double[] l, int n, int column) {
        double[] w = new double[n];
        for (int i = 0; i < n; i++) {
            double acc = i == column ? 1 : 0;
            for (int j = 0; j < i; j++) {
                acc -= l[i * n + j] * w[j];
            }
            w[i] = acc / l[i * n + i];
        }
        double[] x = new double[n];
        for (int i = n - 1; i >= 0; i--) {
            double acc = w[i];
            for (int j = i + 1; j < n; j++) {
                acc -= l[j * n + i] * x[j];
            }
            x[i] = acc / l[i * n + i];
        }
        return x;
    }

    /** {@code (L Lᵀ)⁻¹}, n × n row-major, column by column ({@link #inverseColumn}); it is symmetric. */
    public static double[] inverse(double[] l, int n) {
        double[] inv = new double[n * n];
        for (int c = 0; c < n; c++) {
            double[] x = inverseColumn(l, n, c);
            for (int i = 0; i < n; i++) {
                inv[i * n + c] = x[i];
            }
        }
        return inv;
    }
}
