package org.logz.schedule;

import java.util.function.DoubleBinaryOperator;

import org.logz.base.UserException;

/** Schedules of equally spaced bridge distributions, for paths whose divergence between temperatures has a closed form. */
public final class EqualDivergence {
    /** The longest equal-divergence schedule: finding it takes about a minute. */
    public static final int MAX_STEPS = 100_000;

    private EqualDivergence() {
    }

    /**
     * The schedule of {@code steps} steps whose successive bridge distributions are equally far apart,
     * {@code KL(p_k ‖ p_{k+1})} constant: what Habeck's {@code Scheduler} optimizes for, on a path whose divergence
     * between two temperatures is known in closed form ({@code divergence.applyAsDouble(a, b)} = KL(p_a ‖ p_b),
     * increasing in b above a). Found by bisection on the common divergence, each step by bisection on β.
     */
    public static Schedule of(int steps, DoubleBinaryOperator divergence) {
        Schedule.requireSteps(steps);
        if (steps > MAX_STEPS) {
            throw new UserException("an equal-divergence schedule is found by 200 bisections over all its steps (about a "
                    + "minute for " + MAX_STEPS + " steps), so it is capped there; got " + steps
                    + " steps: use fewer or a linear schedule");
        }
        double lo = 0;
        double hi = divergence.applyAsDouble(0, 1);
        double[] betas = new double[steps + 1];
        for (int iteration = 0; iteration < 200; iteration++) {
            double d = 0.5 * (lo + hi);
            if (walk(d, betas, divergence) < 1) {
                lo = d;
            } else {
                hi = d;
            }
        }
        walk(hi, betas, divergence);
        betas[steps] = 1;
        // guards against rounding: the bisection leaves the steps before the last strictly below 1
        for (int k = steps - 1; k >= 1; k--) {
            betas[k] = Math.min(betas[k], Math.nextDown(betas[k + 1]));
        }
        return new Schedule("equal-divergence", betas);
    }

    /** Fills {@code betas} with steps of divergence {@code d} from 0, stopping at 1; returns where the last one ends. */
    private static double walk(double d, double[] betas, DoubleBinaryOperator divergence) {
        betas[0] = 0;
        for (int k = 1; k < betas.length; k++) {
            double from = betas[k - 1];
            if (from >= 1 || divergence.applyAsDouble(from, 1) <= d) {
                betas[k] = 1;
                continue;
            }
            double lo = from;
            double hi = 1;
            for (int iteration = 0; iteration < 100; iteration++) {
                double mid = 0.5 * (lo + hi);
                if (divergence.applyAsDouble(from, mid) < d) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            betas[k] = hi;
        }
        return betas[betas.length - 1];
    }
}
