package org.logz.numeric;

/**
 * Log-space arithmetic (DESIGN §4). Every function is finite for finite input of any magnitude and
 * propagates {@code -Infinity} (log 0) the way the math says; none returns NaN for finite input.
 */
public final class LogSpace {
    private LogSpace() {
    }

    /** {@code log(1 + e^x) = max(x, 0) + log1p(e^-|x|)}, exact to an ulp for all finite x. */
    public static double softplus(double x) {
        return Math.max(x, 0.0) + Math.log1p(Math.exp(-Math.abs(x)));
    }

    /**
     * Softplus for hot loops: {@code log(1 + t)} with {@code t = e^-|x|} in (0, 1] is accurate to
     * about 1e-16 in absolute terms, which is what sums of softplus terms need, and avoids
     * {@code log1p}, which the JIT does not intrinsify.
     */
    public static double softplusFast(double x) {
        return Math.max(x, 0.0) + Math.log(1.0 + Math.exp(-Math.abs(x)));
    }

    /** The logistic function {@code 1 / (1 + e^-x)}, without overflow for any x. */
    public static double sigmoid(double x) {
        if (x >= 0) {
            return 1.0 / (1.0 + Math.exp(-x));
        }
        double e = Math.exp(x);
        return e / (1.0 + e);
    }

    /** {@code log(e^a + e^b)}. */
    public static double logAddExp(double a, double b) {
        if (a == Double.NEGATIVE_INFINITY) {
            return b;
        }
        if (b == Double.NEGATIVE_INFINITY) {
            return a;
        }
        double m = Math.max(a, b);
        return m + Math.log1p(Math.exp(-Math.abs(a - b)));
    }

    /** Log-sum-exp of {@code v[0..n)} with the maximum subtracted; {@code -Infinity} when empty. */
    public static double logSumExp(double[] v, int n) {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, v[i]);
        }
        if (max == Double.NEGATIVE_INFINITY || Double.isNaN(max)) {
            return max;
        }
        if (max == Double.POSITIVE_INFINITY) {
            return max;
        }
        double sum = 0.0;
        for (int i = 0; i < n; i++) {
            sum += Math.exp(v[i] - max);
        }
        return max + Math.log(sum);
    }

    /**
     * {@code Σ e^{w_i} x_i / Σ e^{w_i}}, the weights taken relative to their largest and normalized by
     * their own sum. Unlike {@code Σ exp(w_i - logSumExp(w)) x_i} it stays a mean when the log weights
     * are so large that {@code max + log(sum)} rounds to {@code max} (|w| ~ 1e40 and beyond): the
     * slopes of BAR's and the histogram estimator's equations are such means.
     */
    public static double weightedMean(double[] logWeights, double[] values) {
        double max = Double.NEGATIVE_INFINITY;
        for (double w : logWeights) {
            max = Math.max(max, w);
        }
        double sum = 0.0;
        double weighted = 0.0;
        for (int i = 0; i < logWeights.length; i++) {
            double e = Math.exp(logWeights[i] - max);
            sum += e;
            weighted += e * values[i];
        }
        return weighted / sum;
    }

    /** Log-sum-exp of the whole array. */
    public static double logSumExp(double[] v) {
        return logSumExp(v, v.length);
    }

    /** {@code log(mean(e^v))}. */
    public static double logMeanExp(double[] v) {
        return logSumExp(v) - Math.log(v.length);
    }

    /**
     * Effective sample size of log weights, {@code exp(2 LSE(lw) - LSE(2 lw))} (Kong; ARM paper
     * eq. 4): {@code n} for equal weights, 1 when one weight dominates, 0 when all are zero.
     */
    public static double ess(double[] logW, int n) {
        double lse = logSumExp(logW, n);
        if (lse == Double.NEGATIVE_INFINITY) {
            return 0.0;
        }
        double[] twice = new double[n];
        for (int i = 0; i < n; i++) {
            twice[i] = 2.0 * logW[i];
        }
        return essFromSums(lse, logSumExp(twice, n));
    }

    /** ESS from {@code LSE(lw)} and {@code LSE(2 lw)}. */
    public static double essFromSums(double logSum, double logSumSquares) {
        if (logSum == Double.NEGATIVE_INFINITY) {
            return 0.0;
        }
        return Math.exp(2.0 * logSum - logSumSquares);
    }
}
