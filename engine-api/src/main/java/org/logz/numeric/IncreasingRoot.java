package org.logz.numeric;

import java.util.function.DoubleFunction;

/**
 * The root of a strictly increasing function that runs from -∞ to +∞, by Newton steps kept inside a
 * bracket (a bisection step whenever Newton would leave it, or two steps did not halve |g|). The bracket is first widened until it
 * holds the root; both phases are capped, so the solver ends on any input: with the root, or with a
 * {@link NonConvergenceException} that says what went wrong. Used by BAR and the histogram estimator,
 * whose equations are monotone in the free energy.
 */
public final class IncreasingRoot {
    private static final double TOLERANCE = 1e-13;
    /** Bisection alone halves the bracket; 2200 halvings take any finite double bracket below one ulp. */
    private static final int MAX_ITERATIONS = 2200;
    /** Doublings of the widening step: from 1 to past Double.MAX_VALUE in 1025; more means no root. */
    private static final int MAX_WIDENINGS = 1100;

    private IncreasingRoot() {
    }

    /**
     * @param what          what is being solved, for the error message
     * @param valueAndSlope {g(x), g'(x)} with g'(x) &gt; 0
     * @param lo            a first guess of the lower end of the bracket
     * @param hi            a first guess of the upper end (above {@code lo})
     * @throws NonConvergenceException when g is not finite where it is evaluated, no bracket holds a
     *                                 sign change within the doubles, or the iterations run out
     */
    public static double solve(String what, DoubleFunction<double[]> valueAndSlope, double lo, double hi) {
        lo = widen(what, valueAndSlope, lo, hi, -1);
        hi = widen(what, valueAndSlope, hi, lo, +1);
        double x = midpoint(lo, hi);
        double previous = Double.POSITIVE_INFINITY;
        double twoBack = Double.POSITIVE_INFINITY;
        for (int iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
            double[] g = evaluate(what, valueAndSlope, x);
            if (g[0] == 0) {
                return x;
            }
            if (g[0] < 0) {
                lo = x;
            } else {
                hi = x;
            }
            double next = x - g[0] / g[1];
            // Bisect where Newton leaves the bracket, or where |g| did not halve in two steps: on a plateau
            // between work values far apart Newton creeps by steps of about g/g', bisection does not.
            boolean creeping = Math.abs(g[0]) > 0.5 * twoBack;
            twoBack = previous;
            previous = Math.abs(g[0]);
            if (creeping || !(next > lo && next < hi)) {
                next = midpoint(lo, hi);
            }
            double resolution = TOLERANCE * Math.max(1.0, Math.abs(next));
            if (Math.abs(next - x) <= resolution && changesSign(what, valueAndSlope, next, resolution)) {
                return next;
            }
            x = next;
            if (hi - lo <= resolution || !(lo < x && x < hi)) {
                return x;
            }
        }
        throw new NonConvergenceException(what + " did not converge in " + MAX_ITERATIONS + " iterations (bracket ["
                + lo + ", " + hi + "])");
    }

    /**
     * Moves {@code end} away from {@code other} in {@code direction} until g changes sign there, by a
     * step that doubles each time and never falls below the spacing of doubles at {@code end} (so it
     * grows even where {@code end - other} is lost to rounding).
     */
    private static double widen(String what, DoubleFunction<double[]> valueAndSlope, double end, double other,
                                int direction) {
        double step = Math.max(Math.abs(end - other), Math.max(1.0, 4 * Math.ulp(end)));
        for (int i = 0; i < MAX_WIDENINGS; i++) {
            double g = evaluate(what, valueAndSlope, end)[0];
            if (direction < 0 ? g <= 0 : g >= 0) {
                return end;
            }
            end += direction * step;
            step *= 2;
            if (!Double.isFinite(end)) {
                break;
            }
        }
        throw new NonConvergenceException(what + " has no root within the range of doubles (the values are too far apart "
                + "to compare)");
    }

    private static double[] evaluate(String what, DoubleFunction<double[]> valueAndSlope, double x) {
        double[] g = valueAndSlope.apply(x);
        if (Double.isNaN(g[0]) || !(g[1] > 0)) {
            throw new NonConvergenceException(what + " is not finite at " + x + " (value " + g[0] + ", slope " + g[1]
                    + "); the inputs are too large or too far apart for float64");
        }
        return g;
    }

    /**
     * Whether g changes sign within {@code resolution} of x. A small Newton step alone does not prove a
     * root: where g is flat (work values far apart make it a staircase) the step is small relative to
     * a large x while g is far from 0.
     */
    private static boolean changesSign(String what, DoubleFunction<double[]> valueAndSlope, double x, double resolution) {
        double below = evaluate(what, valueAndSlope, x - resolution)[0];
        double above = evaluate(what, valueAndSlope, x + resolution)[0];
        return below <= 0 && above >= 0;
    }

    /** {@code (lo + hi) / 2} without overflow for ends near the largest double. */
    private static double midpoint(double lo, double hi) {
        return 0.5 * lo + 0.5 * hi;
    }
}
