package org.logz.exact;

/** A quadrature rule's nodes and weights ({@code ∫ f ≈ Σ_k w_k f(t_k)}), computed once per size by a subclass. */
public abstract class QuadratureRule {
    /** The largest number of nodes a rule is computed for. */
    static final int MAX_NODES = 200;
    private final double[] nodes;
    private final double[] weights;

    QuadratureRule(double[] nodes, double[] weights) {
        this.nodes = nodes;
        this.weights = weights;
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
}
