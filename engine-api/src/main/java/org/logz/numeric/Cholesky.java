package org.logz.numeric;

/** The Cholesky factorization of a dense symmetric matrix, row-major, in float64. */
public final class Cholesky {
    private Cholesky() {
    }

    /**
     * A factor F (n × rank) with {@code F Fᵀ} equal to a positive semi-definite matrix up to a residual
     * whose diagonal entries are at most the tolerance it was computed with.
     *
     * @param columns F stored by columns: column j is {@code columns[j·n .. j·n + n)}
     */
    public record Factor(int n, int rank, double[] columns) {
        public Factor {
            if (columns.length != (long) n * rank) {
                throw new IllegalArgumentException(rank + " columns of " + n + " need " + (long) n * rank
                        + " values, got " + columns.length);
            }
            columns = columns.clone();
        }

        /** A copy of the columns. */
        @Override
        public double[] columns() {
            return columns.clone();
        }

        /** {@code F_ij}. */
        public double at(int i, int j) {
            return columns[j * n + i];
        }
    }

    /** How far beyond the pivot tolerance a residual entry may lie before the matrix counts as indefinite. */
    static final int INDEFINITE = 100;

    /**
     * Cholesky with diagonal pivoting (Higham 2002, §10.3) of the positive semi-definite n × n matrix
     * {@code a} (read only), stopped once every remaining pivot is at most {@code tolerance}: a factor
     * of full rank for a well-conditioned matrix, of its numerical rank for a singular one (rank 0 for
     * a = 0). The residual {@code a - F Fᵀ} is then, for a positive semi-definite a, a matrix whose
     * entries are at most {@code tolerance} in magnitude (|r_ik| ≤ √(r_ii r_kk)); a residual entry beyond
     * {@value #INDEFINITE} times that shows a is indefinite (the factorization's own rounding, of order
     * n·2⁻⁵²·max a_ii, must not: a matrix positive semi-definite but for rounding is accepted).
     *
     * @return the factor, or null when the residual shows that a is not positive semi-definite
     */
    public static Factor pivoted(double[] a, int n, double tolerance) {
        double[] remaining = new double[n];
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            remaining[i] = a[i * n + i];
            order[i] = i;
        }
        double[] columns = new double[n * n];
        int rank = 0;
        while (rank < n) {
            int best = rank;
            for (int k = rank + 1; k < n; k++) {
                if (remaining[order[k]] > remaining[order[best]]) {
                    best = k;
                }
            }
            int pivot = order[best];
            double d = remaining[pivot];
            if (!(d > tolerance)) {
                if (!semidefiniteResidual(a, n, columns, rank, order, tolerance)) {
                    return null;
                }
                break;
            }
            order[best] = order[rank];
            order[rank] = pivot;
            double root = Math.sqrt(d);
            int column = rank * n;
            columns[column + pivot] = root;
            remaining[pivot] = 0;
            for (int k = rank + 1; k < n; k++) {
                int i = order[k];
                double s = a[i * n + pivot];
                for (int q = 0; q < rank; q++) {
                    s -= columns[q * n + i] * columns[q * n + pivot];
                }
                double v = s / root;
                columns[column + i] = v;
                remaining[i] -= v * v;
            }
            rank++;
        }
        return new Factor(n, rank, java.util.Arrays.copyOf(columns, rank * n));
    }

    /** Whether the Schur complement left over the rows not pivoted has no entry beyond the tolerance. */
    private static boolean semidefiniteResidual(double[] a, int n, double[] columns, int rank, int[] order,
                                                double tolerance) {
        for (int k = rank; k < n; k++) {
            int i = order[k];
            for (int l = rank; l <= k; l++) {
                int j = order[l];
                double s = a[i * n + j];
                for (int q = 0; q < rank; q++) {
                    s -= columns[q * n + i] * columns[q * n + j];
                }
                if (!(Math.abs(s) <= INDEFINITE * tolerance)) {
                    return false;
                }
            }
        }
        return true;
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
