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
}
