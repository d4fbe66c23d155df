package org.logz.estimate.tempered;

/**
 * Thermodynamic integration's quadrature over a ladder: {@code log Z(β_j) = log Z_0 + ∫_0^{β_j} E_β[d log f/dβ] dβ} by
 * the trapezoid rule on the mean slopes at the levels, and Richardson's estimate of the rule's error at β = 1.
 */
final class Trapezoid {
    private Trapezoid() {
    }

    /** The cumulative trapezoid rule from {@code logZ0} over {@code slope} at {@code betas}. */
    static double[] curve(double[] betas, double[] slope, double logZ0) {
        double[] out = new double[slope.length];
        out[0] = logZ0;
        for (int j = 1; j < slope.length; j++) {
            out[j] = out[j - 1] + 0.5 * (betas[j] - betas[j - 1]) * (slope[j] + slope[j - 1]);
        }
        return out;
    }

    /** {@link #curve} with its last entry (β = 1) corrected by Richardson's extrapolation ({@link #error}). */
    static double[] extrapolated(double[] betas, double[] slope, double logZ0) {
        double[] out = curve(betas, slope, logZ0);
        out[out.length - 1] += error(betas, slope);
        return out;
    }

    /**
     * Richardson's estimate of the rule's error at β = 1: a trapezoid's error falls as the square of its steps, so the
     * rule on every level misses by about a third of its difference from the rule on every other level (the last level
     * kept). It holds where the ladder is locally even; where it is crowded at a transition part of the error remains.
     */
    static double error(double[] betas, double[] slope) {
        int k = slope.length;
        double fine = curve(betas, slope, 0)[k - 1];
        double coarse = 0;
        int previous = 0;
        for (int j = 2; j < k + 1; j += 2) {
            int at = Math.min(j, k - 1);
            coarse += 0.5 * (slope[previous] + slope[at]) * (betas[at] - betas[previous]);
            previous = at;
        }
        if (previous != k - 1) {
            coarse += 0.5 * (slope[previous] + slope[k - 1]) * (betas[k - 1] - betas[previous]);
        }
        return (fine - coarse) / 3;
    }
}
