package org.logz.model.rbm;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * Exact log Z of an RBM and exact samples from it, by enumerating the smaller layer (DESIGN §5).
 * Summing out the other layer in closed form, with the enumerated layer {@code s} (K units, bias
 * {@code c}) and the other layer (M units, bias {@code d}, coupling {@code V} K×M):
 * {@code log Z = LSE_s [cᵀs + Σ_m softplus(d_m + (sV)_m)]}. States are visited in Gray-code order so
 * each step is one rank-1 update of the field {@code d + sV}.
 */
public final class RbmEnumeration {
    /** Largest layer {@link #logZ} enumerates (2^30 states). */
    public static final int MAX_UNITS = 30;
    /** Largest layer {@link #sample} enumerates; it keeps all 2^K log-probabilities in memory. */
    public static final int MAX_SAMPLING_UNITS = 22;
    /** The Gray code is split into 2^CHUNK_BITS independent chunks (fixed, so results never depend on threads). */
    private static final int CHUNK_BITS = 6;

    private final int k;
    private final int m;
    private final double[] own;
    private final double[] other;
    private final double[] coupling;
    private final boolean hiddenEnumerated;
    private final Rbm rbm;

    private RbmEnumeration(Rbm rbm, int limit) {
        this.rbm = rbm;
        this.hiddenEnumerated = rbm.hidden() <= rbm.visible();
        this.k = hiddenEnumerated ? rbm.hidden() : rbm.visible();
        this.m = hiddenEnumerated ? rbm.visible() : rbm.hidden();
        if (k > limit) {
            throw new UserException("exact enumeration needs a layer of at most " + limit + " units; this "
                    + rbm.visible() + "×" + rbm.hidden() + " RBM's smaller layer has " + k
                    + " (2^" + k + " states); use an estimator instead");
        }
        float[] a = rbm.visibleBias();
        float[] b = rbm.hiddenBias();
        float[] w = rbm.weights();
        this.own = toDouble(hiddenEnumerated ? b : a);
        this.other = toDouble(hiddenEnumerated ? a : b);
        this.coupling = new double[k * m];
        int hidden = rbm.hidden();
        for (int s = 0; s < k; s++) {
            for (int o = 0; o < m; o++) {
                // coupling[s][o] = W[visible][hidden] with the enumerated layer first
                coupling[s * m + o] = hiddenEnumerated ? w[o * hidden + s] : w[s * hidden + o];
            }
        }
    }

    private static double[] toDouble(float[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            d[i] = v[i];
        }
        return d;
    }

    /**
     * Exact log Z in float64.
     *
     * @throws IllegalArgumentException when both layers have more than {@value #MAX_UNITS} units
     */
    public static double logZ(Rbm rbm) {
        return logZ(rbm, ProgressListener.NONE);
    }

    /**
     * Exact log Z in float64, telling {@code listener} how many of the enumeration's chunks (at most
     * 64) are done, from the threads that finish them, in any order.
     */
    public static double logZ(Rbm rbm, ProgressListener listener) {
        return new RbmEnumeration(rbm, MAX_UNITS).logZ(listener);
    }

    /** Whether {@link #logZ(Rbm)} accepts this model. */
    public static boolean canEnumerate(Rbm rbm) {
        return Math.min(rbm.visible(), rbm.hidden()) <= MAX_UNITS;
    }

    /** Whether {@link #sample(Rbm, int, long)} accepts this model. */
    public static boolean canSample(Rbm rbm) {
        return Math.min(rbm.visible(), rbm.hidden()) <= MAX_SAMPLING_UNITS;
    }

    private double logZ(ProgressListener listener) {
        int chunkBits = Math.min(CHUNK_BITS, k);
        int chunks = 1 << chunkBits;
        int lowBits = k - chunkBits;
        double[][] partial = new double[chunks][];
        AtomicInteger done = new AtomicInteger();
        IntStream.range(0, chunks).parallel().forEach(c -> {
            partial[c] = chunk(c, lowBits);
            listener.progress(done.incrementAndGet(), chunks, Double.NaN, Double.NaN);
        });
        double max = Double.NEGATIVE_INFINITY;
        for (double[] p : partial) {
            max = Math.max(max, p[0]);
        }
        double sum = 0;
        for (double[] p : partial) {
            sum += p[1] * Math.exp(p[0] - max);
        }
        return max + Math.log(sum);
    }

    /** Receives each enumerated state (bit i = unit i on) with its unnormalized log-probability. */
    @FunctionalInterface
    private interface StateVisitor {
        void accept(int state, double logWeight);
    }

    /**
     * Streaming log-sum-exp over the 2^lowBits states whose high bits equal {@code high}.
     *
     * @return {max, Σ exp(term - max)}
     */
    private double[] chunk(int high, int lowBits) {
        double[] acc = {Double.NEGATIVE_INFINITY, 0.0};
        visit(high, lowBits, (state, term) -> {
            if (term <= acc[0]) {
                acc[1] += Math.exp(term - acc[0]);
            } else {
                acc[1] = acc[1] * Math.exp(acc[0] - term) + 1.0;
                acc[0] = term;
            }
        });
        return acc;
    }

    /** Visits the 2^lowBits states with high bits {@code high} in Gray-code order. */
    private void visit(int high, int lowBits, StateVisitor visitor) {
        double[] field = other.clone();
        double ownSum = 0;
        int state = high << lowBits;
        for (int bit = lowBits; bit < k; bit++) {
            if ((state >>> bit & 1) != 0) {
                ownSum += own[bit];
                for (int o = 0; o < m; o++) {
                    field[o] += coupling[bit * m + o];
                }
            }
        }
        long states = 1L << lowBits;
        for (long step = 0; step < states; step++) {
            if (step > 0) {
                // Gray code: going from step-1 to step flips the bit at step's lowest set bit
                int bit = Long.numberOfTrailingZeros(step);
                double sign = (state >>> bit & 1) != 0 ? -1.0 : 1.0;
                state ^= 1 << bit;
                ownSum += sign * own[bit];
                for (int o = 0; o < m; o++) {
                    field[o] += sign * coupling[bit * m + o];
                }
            }
            double term = ownSum;
            for (int o = 0; o < m; o++) {
                term += LogSpace.softplusFast(field[o]);
            }
            visitor.accept(state, term);
        }
    }

    /**
     * {@code count} independent exact samples of the visible layer, row-major {@code count × N}.
     * Uses Philox stream {@code EXACT} keyed by {@code seed}.
     *
     * @throws IllegalArgumentException when the smaller layer has more than {@value #MAX_SAMPLING_UNITS} units
     */
    public static float[] sample(Rbm rbm, int count, long seed) {
        return new RbmEnumeration(rbm, MAX_SAMPLING_UNITS).sample(count, seed);
    }

    private float[] sample(int count, long seed) {
        int states = 1 << k;
        double[] logP = new double[states];
        visit(0, k, (state, term) -> logP[state] = term);
        double logZ = LogSpace.logSumExp(logP);
        double[] cdf = new double[states];
        double acc = 0;
        for (int s = 0; s < states; s++) {
            acc += Math.exp(logP[s] - logZ);
            cdf[s] = acc;
        }
        int visible = rbm.visible();
        float[] out = new float[count * visible];
        int[] words = new int[4];
        for (int r = 0; r < count; r++) {
            Philox.block(seed, 0, r, 0, StreamTag.EXACT, words);
            double u = Philox.toUniformDouble(words[0], words[1]) * acc;
            int state = upperBound(cdf, u);
            if (hiddenEnumerated) {
                sampleVisibleGivenHidden(state, r, seed, out, r * visible);
            } else {
                for (int i = 0; i < visible; i++) {
                    out[r * visible + i] = (state >>> i & 1) != 0 ? 1f : 0f;
                }
            }
        }
        return out;
    }

    /** x_i ~ Bernoulli(σ(a_i + W_i· h)) for the hidden state encoded in {@code state}. */
    private void sampleVisibleGivenHidden(int state, int particle, long seed, float[] out, int offset) {
        int[] words = new int[4];
        for (int i = 0; i < m; i += 4) {
            Philox.block(seed, 1 + (i >>> 2), particle, 0, StreamTag.EXACT, words);
            for (int q = 0; q < 4 && i + q < m; q++) {
                double field = other[i + q];
                for (int bit = 0; bit < k; bit++) {
                    if ((state >>> bit & 1) != 0) {
                        field += coupling[bit * m + i + q];
                    }
                }
                out[offset + i + q] = Philox.toUniform(words[q]) < LogSpace.sigmoid(field) ? 1f : 0f;
            }
        }
    }

    /** Smallest index whose cdf value exceeds u (the last one if rounding leaves none). */
    private static int upperBound(double[] cdf, double u) {
        int lo = 0;
        int hi = cdf.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] > u) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}
