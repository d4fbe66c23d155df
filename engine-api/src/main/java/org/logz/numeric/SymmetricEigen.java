package org.logz.numeric;

/**
 * Eigenvalues and eigenvectors of a real symmetric matrix by cyclic Jacobi rotations (Golub &amp;
 * Van Loan §8.5). Small dense matrices only (MBAR's K × K); accurate to a few ulps of the largest
 * eigenvalue.
 */
public final class SymmetricEigen {
    private final double[] values;
    private final double[][] vectors;

    private SymmetricEigen(double[] values, double[][] vectors) {
        this.values = values;
        this.vectors = vectors;
    }

    /** Decomposes {@code a} (symmetric, row-major n × n; not modified). */
    public static SymmetricEigen of(double[][] a) {
        int n = a.length;
        double[][] m = new double[n][];
        for (int i = 0; i < n; i++) {
            if (a[i].length != n) {
                throw new IllegalArgumentException("matrix is not square");
            }
            m[i] = a[i].clone();
        }
        double[][] v = new double[n][n];
        for (int i = 0; i < n; i++) {
            v[i][i] = 1.0;
        }
        for (int sweep = 0; sweep < 100; sweep++) {
            double off = 0;
            double scale = 0;
            for (int i = 0; i < n; i++) {
                scale += m[i][i] * m[i][i];
                for (int j = i + 1; j < n; j++) {
                    off += m[i][j] * m[i][j];
                }
            }
            if (off <= 1e-30 * Math.max(scale, Double.MIN_NORMAL)) {
                break;
            }
            for (int p = 0; p < n; p++) {
                for (int q = p + 1; q < n; q++) {
                    if (m[p][q] == 0.0) {
                        continue;
                    }
                    double theta = (m[q][q] - m[p][p]) / (2 * m[p][q]);
                    double t = Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                    if (theta == 0) {
                        t = 1;
                    }
                    double c = 1 / Math.sqrt(t * t + 1);
                    double s = t * c;
                    for (int k = 0; k < n; k++) {
                        double mkp = m[k][p];
                        double mkq = m[k][q];
                        m[k][p] = c * mkp - s * mkq;
                        m[k][q] = s * mkp + c * mkq;
                    }
                    for (int k = 0; k < n; k++) {
                        double mpk = m[p][k];
                        double mqk = m[q][k];
                        m[p][k] = c * mpk - s * mqk;
                        m[q][k] = s * mpk + c * mqk;
                    }
                    for (int k = 0; k < n; k++) {
                        double vkp = v[k][p];
                        double vkq = v[k][q];
                        v[k][p] = c * vkp - s * vkq;
                        v[k][q] = s * vkp + c * vkq;
                    }
                }
            }
        }
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = m[i][i];
        }
        return new SymmetricEigen(values, v);
    }

    /** Eigenvalue i (in no particular order). */
    public double value(int i) {
        return values[i];
    }

    /** Component k of eigenvector i. */
    public double vector(int k, int i) {
        return vectors[k][i];
    }

    public int size() {
        return values.length;
    }

    /**
     * The Moore-Penrose pseudo-inverse {@code V diag(1/λ) Vᵀ}, dropping eigenvalues below
     * {@code rcond} times the largest magnitude (as numpy.linalg.pinv does through singular values,
     * which for a symmetric matrix are the eigenvalue magnitudes).
     */
    public double[][] pseudoInverse(double rcond) {
        int n = values.length;
        double largest = 0;
        for (double v : values) {
            largest = Math.max(largest, Math.abs(v));
        }
        double[][] out = new double[n][n];
        for (int i = 0; i < n; i++) {
            if (Math.abs(values[i]) <= rcond * largest) {
                continue;
            }
            double inv = 1.0 / values[i];
            for (int r = 0; r < n; r++) {
                double vr = vectors[r][i] * inv;
                for (int c = 0; c < n; c++) {
                    out[r][c] += vr * vectors[c][i];
                }
            }
        }
        return out;
    }
}
