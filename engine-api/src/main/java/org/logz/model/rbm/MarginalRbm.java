package org.logz.model.rbm;

import java.util.Optional;

import org.logz.base.UserException;
import org.logz.io.ContentDigest;
import org.logz.model.Rbm;
import org.logz.model.TemperedModel;
import org.logz.numeric.LogSpace;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * An RBM on Habeck's marginal path (2017, §6.3; DESIGN §5): the visible units summed out, the chains move over the
 * hidden units h ∈ {0,1}^H only, {@code p_β(h) ∝ exp(β·(−F(h)))} with
 * {@code −F(h) = bᵀh + Σ_i softplus(a_i + W_i:·h)}. Relative to the uniform base, {@code log f_β(h) = β·(−F(h))}
 * (linear in β), {@code Z_0 = 2^H}, and at β = 1 {@code Σ_h exp(−F(h))} is the RBM's Z.
 *
 * <p>The transition is a sweep of single-unit Metropolis flips (j = 0 .. H−1, reversed when annealing towards
 * smaller β). Every backend computes the visible pre-activations {@code g = a + W h} of a chain when a call starts and
 * then keeps {@code e_i = e^{g_i}} and {@code s_i = σ(g_i) = e_i / (1 + e_i)}, so a proposal costs O(N) multiplications:
 * {@code softplus(g + w) − softplus(g) = log(1 + σ(g)(e^w − 1))}, so {@code −F(h') + F(h) = ±b_j + log Π_i (1 + s_i
 * D_ij)} with {@code D_ij = expm1(±W_ij)} tabulated once ({@link #flipTable}); the product is logged every
 * {@link #span()} factors so that it never leaves the range of a double. An accepted flip multiplies e by
 * {@code 1 + D_:j} and refreshes s, with no exponential (the first version recomputed σ(g), N exponentials per
 * accepted flip, and nearly every flip is accepted at small β: AIS with 20 chains × 100 steps on the CD-25 RBM took
 * 9.6 s against 6.5 s). The pre-activations are bounded ({@link #MAX_PREACTIVATION}) so that e never overflows or
 * underflows.
 *
 * <p>Philox: flip j of the transition at step s takes word {@code j mod 4} of block {@code (j/4, chain, s, MODEL)};
 * base draws (fair coins) take block {@code (BASE_BLOCK + j/4, chain, s, MODEL)}, so the block index separates the two
 * purposes (DESIGN §3).
 */
public record MarginalRbm(Rbm rbm) implements TemperedModel {
    /** The first Philox block of base draws, above any flip block (H/4 < 2^28). */
    public static final int BASE_BLOCK = 1 << 28;
    /** The largest |g_i| whose {@code e^{g_i}} a double holds (and the room for a product of factors e^{±W_ij}). */
    static final double MAX_PREACTIVATION = 600;
    /** The most factors multiplied before their product is logged. */
    static final int MAX_SPAN = 64;

    public MarginalRbm {
        double bound = preactivationBound(rbm);
        if (bound > MAX_PREACTIVATION) {
            throw new UserException("--path marginal keeps e^(a_i + W_i:h) in float64, which needs |a_i| + Σ_j |W_ij| ≤ "
                    + (int) MAX_PREACTIVATION + "; this RBM's bound is " + bound + ": use --path full");
        }
    }

    /** {@code max_i |a_i| + Σ_j |W_ij|}, which bounds every |g_i| (and every |W_ij|). */
    private static double preactivationBound(Rbm rbm) {
        float[] a = rbm.visibleBias();
        double largest = 0;
        for (int i = 0; i < rbm.visible(); i++) {
            double sum = Math.abs(a[i]);
            for (int j = 0; j < rbm.hidden(); j++) {
                sum += Math.abs(rbm.weight(i, j));
            }
            largest = Math.max(largest, sum);
        }
        return largest;
    }

    private static double largestWeight(Rbm rbm) {
        double largest = 0;
        for (float w : rbm.weights()) {
            largest = Math.max(largest, Math.abs(w));
        }
        return largest;
    }

    /** How many factors {@code 1 + s_i D_ij} (each within {@code e^{±|W|}}) are multiplied before a log: at most 600 nats. */
    public int span() {
        double largest = largestWeight(rbm);
        return largest * MAX_SPAN <= MAX_PREACTIVATION ? MAX_SPAN : Math.max(1, (int) (MAX_PREACTIVATION / largest));
    }

    /**
     * {@code D[j·N + i] = expm1(sign·W_ij)} by hidden column, so a flip of unit j reads N consecutive values: sign +1 for
     * a flip 0 → 1, −1 for 1 → 0.
     */
    public double[] flipTable(int sign) {
        int n = rbm.visible();
        int h = rbm.hidden();
        double[] d = new double[n * h];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < h; j++) {
                d[j * n + i] = Math.expm1(sign * (double) rbm.weight(i, j));
            }
        }
        return d;
    }

    @Override
    public String fingerprint() {
        return "marginal rbm " + rbm.visible() + "x" + rbm.hidden() + " " + ContentDigest.of(rbm.weights(),
                rbm.visibleBias(), rbm.hiddenBias());
    }

    @Override
    public String description() {
        return "RBM " + rbm.visible() + "×" + rbm.hidden() + ", marginal path over the hidden units";
    }

    /** Counts the transitions as sweeps of H Metropolis flips. */
    @Override
    public String description(int transitionsPerStep) {
        return description() + ", " + transitionsPerStep + " Metropolis sweep" + (transitionsPerStep > 1 ? "s" : "")
                + " per step";
    }

    /** What the reports print after "start": the base and the path. */
    @Override
    public String baseName() {
        return "uniform h (marginal path)";
    }

    @Override
    public int dimension() {
        return rbm.hidden();
    }

    /** {@code H log 2}: the uniform distribution over h. */
    @Override
    public double logZ0() {
        return rbm.hidden() * Math.log(2.0);
    }

    @Override
    public boolean discrete() {
        return true;
    }

    @Override
    public boolean linearPath() {
        return true;
    }

    @Override
    public long bytesPerChain() {
        return bytesPerChain(rbm);
    }

    /** The state h (H floats) and the kernels' per-chain g and σ(g) in float64 (2N doubles). */
    static long bytesPerChain(Rbm rbm) {
        return 4L * rbm.hidden() + 16L * rbm.visible();
    }

    /** {@code −F(h) = bᵀh + Σ_i softplus(a_i + W_i:·h)} of the row at {@code offset}, in float64 from the formula. */
    public double negativeFreeEnergy(float[] h, int offset) {
        int n = rbm.visible();
        int k = rbm.hidden();
        float[] w = rbm.weights();
        float[] a = rbm.visibleBias();
        float[] b = rbm.hiddenBias();
        double s = 0;
        for (int j = 0; j < k; j++) {
            s += (double) b[j] * h[offset + j];
        }
        for (int i = 0; i < n; i++) {
            double g = a[i];
            for (int j = 0; j < k; j++) {
                g += (double) w[i * k + j] * h[offset + j];
            }
            s += LogSpace.softplus(g);
        }
        return s;
    }

    /**
     * One h per visible row (N floats each), {@code h_j ~ Bernoulli(σ(b_j + vᵀW_:j))}, row r from word j mod 4 of
     * block {@code (j/4, r, 0, MODEL)} under {@code key}: how a data start or an exact visible sample becomes a state of
     * this path (Habeck §6.3 starts reverse runs from a training image's hidden units).
     */
    public float[] hiddenGivenVisible(float[] v, int count, long key) {
        int n = rbm.visible();
        int k = rbm.hidden();
        float[] w = rbm.weights();
        float[] b = rbm.hiddenBias();
        float[] out = new float[count * k];
        int[] words = new int[4];
        for (int r = 0; r < count; r++) {
            for (int j = 0; j < k; j++) {
                double u = b[j];
                for (int i = 0; i < n; i++) {
                    u += (double) v[r * n + i] * w[i * k + j];
                }
                if ((j & 3) == 0) {
                    Philox.block(key, j >>> 2, r, 0, StreamTag.MODEL, words);
                }
                out[r * k + j] = Philox.toUniform(words[j & 3]) < LogSpace.sigmoid(u) ? 1f : 0f;
            }
        }
        return out;
    }

    /** Exact visible samples (by enumeration), then h given each: exact draws from {@code p(h)}. */
    @Override
    public Optional<float[]> exactTargetSamples(int count, long seed) {
        if (!RbmEnumeration.canSample(rbm)) {
            return Optional.empty();
        }
        float[] v = RbmEnumeration.sample(rbm, count, seed);
        return Optional.of(hiddenGivenVisible(v, count, Philox.derive(seed, StreamTag.MODEL, 1)));
    }
}
