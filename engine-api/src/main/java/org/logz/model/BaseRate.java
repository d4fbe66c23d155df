package org.logz.model;

import org.logz.base.UserException;
import org.logz.numeric.LogSpace;

/**
 * The base-rate distribution of the tempered RBM path (Salakhutdinov &amp; Murray 2008; DESIGN §5):
 * independent visible units, {@code p_0(x) = Π_i Bernoulli(x_i; σ(a0_i))}, with {@code a0} the
 * log-odds of (smoothed) data means, or zero for the uniform base.
 */
public final class BaseRate {
    private final float[] a0;
    private final String source;

    private BaseRate(float[] a0, String source) {
        Rbm.requireFinite("a0", a0, 0);
        for (int i = 0; i < a0.length; i++) {
            if (Math.abs(a0[i]) > Rbm.MAX_PREACTIVATION) {
                throw new UserException("a0[" + i + "] = " + a0[i] + " is beyond ±" + (int) Rbm.MAX_PREACTIVATION
                        + ", which float32 holds to within 0.001; a base-rate log-odds this large is a point mass that no "
                        + "annealing schedule can leave");
            }
        }
        this.a0 = a0.clone();
        this.source = source;
    }

    /** Base rate from explicit log-odds (e.g. the {@code a0} array of a model file). */
    public static BaseRate of(float[] a0, String source) {
        return new BaseRate(a0, source);
    }

    /** The uniform base, {@code a0 = 0}. */
    public static BaseRate uniform(int visible) {
        return new BaseRate(new float[visible], "uniform");
    }

    /**
     * The model's own visible biases as the base: {@code p_0} is the RBM with W = 0 and b = 0
     * (the start of the reference runs in Habeck 2017 §6.3).
     */
    public static BaseRate visibleBias(Rbm rbm) {
        return new BaseRate(rbm.visibleBias(), "visible-bias");
    }

    /**
     * Log-odds of the data means with add-one (Laplace) smoothing, {@code p_i = (n_i + 1)/(n + 2)}, so
     * a pixel that is always on or off in the data still has finite log-odds.
     *
     * @param onCounts number of examples with unit i on
     * @param examples number of examples
     */
    public static BaseRate fromCounts(long[] onCounts, long examples, String source) {
        float[] a0 = new float[onCounts.length];
        for (int i = 0; i < a0.length; i++) {
            double p = (onCounts[i] + 1.0) / (examples + 2.0);
            a0[i] = (float) Math.log(p / (1.0 - p));
        }
        return new BaseRate(a0, source);
    }

    public int visible() {
        return a0.length;
    }

    /** A copy of the log-odds. */
    public float[] logOdds() {
        return a0.clone();
    }

    /** Where the base rate came from ("uniform", "model file", "data:mnist", ...). */
    public String source() {
        return source;
    }

    /** {@code log Π_i (1 + e^{a0_i})}, the normalizer of the visible base distribution. */
    public double logNormalizer() {
        double s = 0;
        for (float v : a0) {
            s += LogSpace.softplus(v);
        }
        return s;
    }
}
