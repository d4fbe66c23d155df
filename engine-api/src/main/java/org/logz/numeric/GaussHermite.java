package org.logz.numeric;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;


/**
 * Gauss-Hermite quadrature, {@code ∫ f(t) e^{-t²} dt ≈ Σ_k w_k f(t_k)}, exact for polynomials of degree below 2n.
 * Nodes are the eigenvalues of the Jacobi matrix (Golub &amp; Welsch 1969), each polished by Newton steps on the
 * orthonormal Hermite recurrence; weights by the Christoffel formula {@code w_k = 1 / Σ_j p_j(t_k)²} with p_j
 * orthonormal for e^{-t²}, which keeps the tiny outer weights accurate in relative terms.
 */
public final class GaussHermite extends QuadratureRule {
    private static final Map<Integer, GaussHermite> RULES = new ConcurrentHashMap<>();
    private GaussHermite(double[] nodes, double[] weights) {
        super(nodes, weights);
    }

    /** The n-node rule (1 ≤ n ≤ 200), computed once. */
    public static GaussHermite of(int n) {
        checkSize("Gauss-Hermite", n);
        return RULES.computeIfAbsent(n, GaussHermite::compute);
    }

    private static GaussHermite compute(int n) {
        double[][] jacobi = new double[n][n];
        for (int k = 1; k < n; k++) {
            jacobi[k][k - 1] = Math.sqrt(k / 2.0);
            jacobi[k - 1][k] = jacobi[k][k - 1];
        }
        SymmetricEigen eigen = SymmetricEigen.of(jacobi);
        double[] nodes = new double[n];
        for (int k = 0; k < n; k++) {
            nodes[k] = eigen.value(k);
        }
        Arrays.sort(nodes);
        double[] weights = new double[n];
        double[] p = new double[n + 1];
        for (int k = 0; k < n; k++) {
            double t = nodes[k];
            for (int iteration = 0; iteration < 3; iteration++) {
                orthonormal(t, p);
                // p_n' = √(2n) p_{n-1} for the orthonormal family
                double step = p[n] / (Math.sqrt(2.0 * n) * p[n - 1]);
                if (Double.isFinite(step)) {
                    t -= step;
                }
            }
            nodes[k] = t;
            orthonormal(t, p);
            double sum = 0;
            for (int j = 0; j < n; j++) {
                sum += p[j] * p[j];
            }
            weights[k] = 1 / sum;
        }
        return new GaussHermite(nodes, weights);
    }

    /** {@code p[j] = p_j(t)} for j = 0..n, orthonormal with respect to e^{-t²}. */
    private static void orthonormal(double t, double[] p) {
        p[0] = Math.pow(Math.PI, -0.25);
        if (p.length > 1) {
            p[1] = Math.sqrt(2) * t * p[0];
        }
        for (int j = 2; j < p.length; j++) {
            p[j] = Math.sqrt(2.0 / j) * t * p[j - 1] - Math.sqrt((j - 1.0) / j) * p[j - 2];
        }
    }
}
