package org.logz.model;

import java.util.Locale;

import org.logz.base.UserException;
import org.logz.memory.HostMemory;
import org.logz.numeric.LogSpace;

/**
 * A binary restricted Boltzmann machine, {@code log f(x, h) = xᵀWh + aᵀx + bᵀh} with
 * {@code x ∈ {0,1}^N}, {@code h ∈ {0,1}^H} (DESIGN §5). Parameters are float32, immutable and
 * validated on construction: shapes agree and every value is finite.
 */
public final class Rbm {
    /**
     * The largest pre-activation magnitude logz accepts, 2^14. The samplers and the weights compute
     * pre-activations ({@code b_j + xᵀW_:j}, {@code a_i + W_i:h}, and with a base rate
     * {@code (1-β)a0_i + β(...)}) in float32, whose 24-bit significand holds a value up to 2^14 to within
     * 2^-10 ≈ 0.001; beyond it each product carries rounding errors of more than a thousandth of a nat
     * (at 1e8 more than a nat), and the log weights computed from them stop meaning anything. Trained
     * RBMs stay far below it (the 784×500 CD-25 MNIST model: 176).
     */
    public static final double MAX_PREACTIVATION = 16384;

    private final int visible;
    private final int hidden;
    private final float[] w;
    private final float[] a;
    private final float[] b;

    /**
     * @param w visible × hidden weights, row-major ({@code w[i * hidden + j]} couples visible i and
     *          hidden j)
     * @param a visible biases (length {@code visible})
     * @param b hidden biases (length {@code hidden})
     * @throws IllegalArgumentException naming the array and the problem when shapes disagree or a
     *                                  value is not finite
     */
    public Rbm(int visible, int hidden, float[] w, float[] a, float[] b) {
        if (visible < 1 || hidden < 1) {
            throw new UserException("an RBM needs at least one visible and one hidden unit, got "
                    + visible + "×" + hidden);
        }
        if ((long) visible * hidden > Integer.MAX_VALUE) {
            throw new UserException("W of " + visible + "×" + hidden + " is too large");
        }
        requireLength("W", w, visible * hidden, visible + "×" + hidden);
        requireLength("a", a, visible, "visible count " + visible);
        requireLength("b", b, hidden, "hidden count " + hidden);
        requireFinite("W", w, hidden);
        requireFinite("a", a, 0);
        requireFinite("b", b, 0);
        requireRepresentable(visible, hidden, w, a, b);
        String copy = "the copy of an RBM of " + visible + "×" + hidden;
        HostMemory.requireHeap(4L * visible * hidden + 4L * visible + 4L * hidden, copy);
        this.visible = visible;
        this.hidden = hidden;
        this.w = HostMemory.copy(w, copy);
        this.a = HostMemory.copy(a, copy);
        this.b = HostMemory.copy(b, copy);
    }

    private static void requireLength(String name, float[] values, int expected, String what) {
        if (values == null) {
            throw new UserException(name + " is missing");
        }
        if (values.length != expected) {
            throw new UserException(name + " has " + values.length + " values, expected " + expected
                    + " (" + what + ")");
        }
    }

    /**
     * The bound of {@link #MAX_PREACTIVATION} on every pre-activation the model can produce:
     * {@code |b_j| + Σ_i |W_ij|} for hidden unit j, {@code |a_i| + Σ_j |W_ij|} for visible unit i.
     */
    private static void requireRepresentable(int visible, int hidden, float[] w, float[] a, float[] b) {
        for (int i = 0; i < visible; i++) {
            double visibleBound = Math.abs(a[i]);
            for (int j = 0; j < hidden; j++) {
                visibleBound += Math.abs(w[i * hidden + j]);
            }
            if (visibleBound > MAX_PREACTIVATION) {
                throw new UserException(String.format(Locale.ROOT, "visible unit %d's pre-activation can reach "
                        + "%.3g (|a_%d| + Σ_j |W_%d,j|), beyond the %.0f that float32 holds to within 0.001; logz does "
                        + "not sample parameters this large faithfully", i, visibleBound, i, i, MAX_PREACTIVATION));
            }
        }
        // the hidden units' sums a block of columns at a time: a double per hidden unit would be twice W's own size
        // where W has one row (2^28 hidden units ended in OutOfMemoryError)
        double[] hiddenBound = new double[Math.min(hidden, COLUMN_BLOCK)];
        for (int start = 0; start < hidden; start += COLUMN_BLOCK) {
            int end = Math.min(hidden, start + COLUMN_BLOCK);
            for (int j = start; j < end; j++) {
                hiddenBound[j - start] = Math.abs(b[j]);
            }
            for (int i = 0; i < visible; i++) {
                for (int j = start; j < end; j++) {
                    hiddenBound[j - start] += Math.abs(w[i * hidden + j]);
                }
            }
            for (int j = start; j < end; j++) {
                if (hiddenBound[j - start] > MAX_PREACTIVATION) {
                    throw new UserException(String.format(Locale.ROOT, "hidden unit %d's pre-activation can reach "
                            + "%.3g (|b_%d| + Σ_i |W_i,%d|), beyond the %.0f that float32 holds to within 0.001; logz "
                            + "does not sample parameters this large faithfully", j, hiddenBound[j - start], j, j,
                            MAX_PREACTIVATION));
                }
            }
        }
    }

    /** Hidden units whose pre-activation bounds {@link #requireRepresentable} sums at once. */
    private static final int COLUMN_BLOCK = 4096;

    /** @param columns row length for messages about matrices, 0 for vectors */
    static void requireFinite(String name, float[] values, int columns) {
        for (int k = 0; k < values.length; k++) {
            if (!Float.isFinite(values[k])) {
                String where = columns > 0 ? "[" + k / columns + "," + k % columns + "]" : "[" + k + "]";
                throw new UserException(name + where + " is " + values[k] + "; every parameter must be finite");
            }
        }
    }

    public int visible() {
        return visible;
    }

    public int hidden() {
        return hidden;
    }

    /**
     * A copy of W, row-major visible × hidden; refused with an {@link org.logz.memory.InsufficientMemoryException}
     * where the heap cannot hold it (kernels, fingerprints and searches each take one).
     */
    public float[] weights() {
        HostMemory.requireHeap(4L * w.length, "a copy of the weights of an RBM of " + visible + "×" + hidden);
        return w.clone();
    }

    /** A copy of the visible biases. */
    public float[] visibleBias() {
        return a.clone();
    }

    /** A copy of the hidden biases. */
    public float[] hiddenBias() {
        return b.clone();
    }

    public float weight(int i, int j) {
        return w[i * hidden + j];
    }

    /**
     * Unnormalized log marginal of a visible vector, {@code aᵀx + Σ_j softplus(b_j + xᵀW_:j)}, in
     * float64. For tests and host-side checks; backends compute it in batch.
     */
    public double logMarginal(float[] x) {
        if (x.length != visible) {
            throw new UserException("x has " + x.length + " values, expected " + visible);
        }
        double s = 0;
        for (int i = 0; i < visible; i++) {
            s += (double) a[i] * x[i];
        }
        for (int j = 0; j < hidden; j++) {
            double u = b[j];
            for (int i = 0; i < visible; i++) {
                u += (double) x[i] * w[i * hidden + j];
            }
            s += LogSpace.softplus(u);
        }
        return s;
    }

    /**
     * The same model with visible units reordered: unit {@code k} of the result is unit
     * {@code order[k]} of this one. The partition function is unchanged.
     */
    public Rbm permuteVisible(int[] order) {
        if (order.length != visible) {
            throw new UserException("unit order has " + order.length + " entries, expected " + visible);
        }
        boolean[] seen = new boolean[visible];
        float[] pw = new float[w.length];
        float[] pa = new float[visible];
        for (int k = 0; k < visible; k++) {
            int i = order[k];
            if (i < 0 || i >= visible || seen[i]) {
                throw new UserException("unit order is not a permutation of 0.." + (visible - 1));
            }
            seen[i] = true;
            pa[k] = a[i];
            System.arraycopy(w, i * hidden, pw, k * hidden, hidden);
        }
        return new Rbm(visible, hidden, pw, pa, b);
    }

    @Override
    public String toString() {
        return "Rbm[" + visible + "×" + hidden + "]";
    }
}
