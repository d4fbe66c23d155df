package org.logz.model.potts;

/**
 * The scalar steps of the Potts kernels that the CPU backend runs and potts.cu ports operation for operation (float32
 * arithmetic in the same order), so that the two draw the same colours from the same uniforms. The reference backend
 * writes them again from the formulas instead.
 *
 * <p>Random numbers (DESIGN §3) are drawn under {@code StreamTag.MODEL}, the purpose in the top bits of the Philox block
 * index: block {@code (purpose << 24) | g} with g the site's group, {@code i / 4} for the one uniform of a base draw or a
 * heat-bath update (word {@code i mod 4}), {@code i / 2} for the two of a Metropolis update (words {@code 2(i mod 2)}
 * and {@code 2(i mod 2) + 1}: the proposal, then the acceptance). L² ≤ 2^24 keeps g below the purpose bits.
 */
public final class PottsSteps {
    /** Purpose of the uniform base draws. */
    public static final int BASE = 0;
    /** Purpose of the heat-bath updates. */
    public static final int HEATBATH = 1;
    /** Purpose of the Metropolis updates. */
    public static final int METROPOLIS = 2;

    private PottsSteps() {
    }

    /** The Philox block index of site i's uniforms for {@code purpose}. */
    public static int block(int purpose, int site) {
        return purpose << 24 | (purpose == METROPOLIS ? site >>> 1 : site >>> 2);
    }

    /** A uniform colour from a uniform u in (0, 1): {@code floor(u q)}, at most q - 1. */
    public static int baseColour(float u, int colours) {
        return Math.min((int) (u * colours), colours - 1);
    }

    /**
     * {@code s[k] = e^{-β J k}} in float32 for k = 0 .. 4: a colour's conditional weight relative to the best one, k
     * being how many fewer neighbours it agrees with. Relative weights stay in [0, 1] for every β J ≥ 0.
     */
    public static void weights(double betaJ, float[] s) {
        for (int k = 0; k <= 4; k++) {
            s[k] = (float) Math.exp(-betaJ * k);
        }
    }

    /**
     * A heat-bath draw of a site with neighbour colours a, b, c, d: colour x with probability ∝ {@code e^{β J n_x}}, n_x
     * the neighbours of colour x, by inverting the cumulative weights over colours 0 .. q-1 in order at {@code u W}. Only
     * the (at most four) distinct neighbour colours weigh more than the rest, so the walk visits them in increasing order
     * (a sorting network of four) and crosses each run of colours of base weight {@code s[m]} between them (m the largest
     * n_x) in one step. Where rounding leaves the target past the last weight, the last colour of positive weight is
     * drawn.
     */
    public static int heatBath(int colours, int a, int b, int c, int d, float[] s, float u) {
        int x0 = Math.min(a, b);
        int x1 = Math.max(a, b);
        int x2 = Math.min(c, d);
        int x3 = Math.max(c, d);
        int m1 = Math.max(x0, x2);
        int m2 = Math.min(x1, x3);
        int v0 = Math.min(x0, x2);
        int v1 = Math.min(m1, m2);
        int v2 = Math.max(m1, m2);
        int v3 = Math.max(x1, x3);
        int most = Math.max(Math.max(agree(a, a, b, c, d), agree(b, a, b, c, d)),
                Math.max(agree(c, a, b, c, d), agree(d, a, b, c, d)));
        int distinct = 1 + (v1 != v0 ? 1 : 0) + (v2 != v1 ? 1 : 0) + (v3 != v2 ? 1 : 0);
        float rest = s[most];
        float total = (colours - distinct) * rest;
        for (int j = 0; j < 4; j++) {
            int v = pick(j, v0, v1, v2, v3);
            if (j == 0 || v != pick(j - 1, v0, v1, v2, v3)) {
                total += s[most - agree(v, a, b, c, d)];
            }
        }
        float target = u * total;
        float acc = 0f;
        int next = 0;
        int last = -1;
        for (int j = 0; j < 4; j++) {
            int v = pick(j, v0, v1, v2, v3);
            if (j > 0 && v == pick(j - 1, v0, v1, v2, v3)) {
                continue;
            }
            float gap = (v - next) * rest;
            if (target < acc + gap) {
                return next + (int) Math.min((target - acc) / rest, (float) (v - 1 - next));
            }
            if (gap > 0f) {
                last = v - 1;
            }
            acc += gap;
            float w = s[most - agree(v, a, b, c, d)];
            if (target < acc + w) {
                return v;
            }
            if (w > 0f) {
                last = v;
            }
            acc += w;
            next = v + 1;
        }
        if (next < colours && rest > 0f) {
            return next + (int) Math.min((target - acc) / rest, (float) (colours - 1 - next));
        }
        return last;
    }

    private static int pick(int j, int v0, int v1, int v2, int v3) {
        return j == 0 ? v0 : j == 1 ? v1 : j == 2 ? v2 : v3;
    }

    /**
     * A Metropolis update of a site of colour {@code current}: propose {@code (current + 1 + floor(u (q-1))) mod q}, a
     * uniform other colour (a symmetric proposal), and accept when it agrees with at least as many neighbours or when
     * {@code v < e^{β J Δ}}, Δ &lt; 0 the change in agreements, read from {@code s[-Δ]}.
     */
    public static int metropolis(int colours, int current, int a, int b, int c, int d, float[] s, float u, float v) {
        int proposed = current + 1 + Math.min((int) (u * (colours - 1)), colours - 2);
        if (proposed >= colours) {
            proposed -= colours;
        }
        int delta = agree(proposed, a, b, c, d) - agree(current, a, b, c, d);
        return delta >= 0 || v < s[-delta] ? proposed : current;
    }

    private static int agree(int x, int a, int b, int c, int d) {
        return (x == a ? 1 : 0) + (x == b ? 1 : 0) + (x == c ? 1 : 0) + (x == d ? 1 : 0);
    }
}
