package org.logz.numeric;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Gauss-Legendre quadrature on [-1, 1], {@code ∫ f(t) dt ≈ Σ_k w_k f(t_k)}, exact for polynomials of degree below
 * 2n: nodes by Newton's method on the Legendre recurrence from the Chebyshev-like guesses
 * {@code cos(π (k + 3/4) / (n + 1/2))}, weights {@code 2 / ((1 - t²) P_n'(t)²)}.
 */
public final class GaussLegendre extends QuadratureRule {
    private static final Map<Integer, GaussLegendre> RULES = new ConcurrentHashMap<>();
    private GaussLegendre(double[] nodes, double[] weights) {
        super(nodes, weights);
    }

    /** The n-node rule (1 ≤ n ≤ 200), computed once. */
    public static GaussLegendre of(int n) {
        checkSize("Gauss-Legendre", n);
        return RULES.computeIfAbsent(n, GaussLegendre::compute);
    }

    private static GaussLegendre compute(int n) {
        double[] nodes = new double[n];
        double[] weights = new double[n];
        for (int k = 0; k < n; k++) {
            double t = Math.cos(Math.PI * (k + 0.75) / (n + 0.5));
            double derivative = 0;
            for (int iteration = 0; iteration < 100; iteration++) {
                double previous = 1;
                double current = t;
                for (int j = 2; j <= n; j++) {
                    double next = ((2 * j - 1) * t * current - (j - 1) * previous) / j;
                    previous = current;
                    current = next;
                }
                double value = n == 1 ? t : current;
                derivative = n * (t * value - (n == 1 ? 1 : previous)) / (t * t - 1);
                double step = value / derivative;
                t -= step;
                if (Math.abs(step) < 1e-16) {
                    break;
                }
            }
            nodes[k] = t;
            weights[k] = 2 / ((1 - t * t) * derivative * derivative);
        }
        return new GaussLegendre(nodes, weights);
    }
}
