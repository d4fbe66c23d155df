package org.logz.numeric;

/** A quadrature rule's nodes and weights ({@code ∫ f ≈ Σ_k w_k f(t_k)}), computed once per size by a subclass. */
public abstract class QuadratureRule {
    /** The largest number of nodes a rule is computed for. */
    static final int MAX_NODES = 200;
    private final double[] nodes;
    private final double[] weights;
    private final double[] logWeights;

    QuadratureRule(double[] nodes, double[] weights) {
        this.nodes = nodes;
        this.weights = weights;
        this.logWeights = new double[weights.length];
        for (int k = 0; k < weights.length; k++) {
            logWeights[k] = Math.log(weights[k]);
        }
    }

    /** Fails unless 1 ≤ n ≤ {@value #MAX_NODES}. */
    static void checkSize(String family, int n) {
        if (n < 1 || n > MAX_NODES) {
            throw new IllegalArgumentException(family + " rules have 1 to " + MAX_NODES + " nodes, got " + n);
        }
    }

    public final int size() {
        return nodes.length;
    }

    public final double node(int k) {
        return nodes[k];
    }

    public final double weight(int k) {
        return weights[k];
    }

    /** {@code log w_k}, computed once: log-space sums over the rule take it on every evaluation. */
    public final double logWeight(int k) {
        return logWeights[k];
    }
}
