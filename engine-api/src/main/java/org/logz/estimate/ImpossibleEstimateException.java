package org.logz.estimate;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import org.logz.base.EstimationException;

/**
 * An estimate below {@code log f(s)} of a state s the run visited. Where Z sums f over states
 * (Ising: spin configurations; RBMs: hidden configurations with the visible units summed out,
 * {@code f(h) = Σ_x f(x, h)}), {@code log Z ≥ log f(s)} for every s, so such an estimate is wrong by
 * construction; it is refused rather than printed.
 */
public final class ImpossibleEstimateException extends EstimationException {
    /** What a visited bound is, in messages. */
    static final String BOUND = "the log unnormalized probability of a state the run visited";

    private final double logZ;

    private ImpossibleEstimateException(String message, double logZ) {
        super(message);
        this.logZ = logZ;
    }

    /** The refused estimate: a benchmark over many seeds scores it rather than dropping the run. */
    public double logZ() {
        return logZ;
    }

    /**
     * Refuses {@code logZ} when it lies below {@code visitedBound} by more than float rounding of the
     * log densities (1e-3 + 1e-6·|bound|: log f is summed in float64 from float32 products) plus three
     * of its standard errors ({@code stdErr}, 0 or NaN when it has none). An estimate below the bound
     * within its own noise is wrong but close; it is printed with the {@code below-bound} warning
     * ({@link #atBound}) instead: AIS underestimates log Z, and on a model with one dominant state it
     * lands just below that state's log f in about half of its runs.
     */
    public static void check(String what, double logZ, double stdErr, OptionalDouble visitedBound) {
        if (Double.isNaN(logZ)) {
            throw new EstimationException(what + ": the estimate is not a number (degenerate weights)");
        }
        if (visitedBound.isEmpty()) {
            return;
        }
        double bound = visitedBound.getAsDouble();
        double noise = Double.isFinite(stdErr) ? 3 * stdErr : 0;
        if (logZ < bound - tolerance(bound) - noise) {
            throw new ImpossibleEstimateException(String.format(Locale.ROOT, "%s: the estimate %.4f lies below %.4f, "
                    + BOUND + ", by more than three standard errors, and log Z is at least that: the estimate is wrong (the chains missed where the mass is); anneal "
                    + "more slowly, use more chains or another base rate", what, logZ, bound), logZ);
        }
    }

    /**
     * Refuses {@code logZ} above {@code bound}, an upper bound of log Z that the model guarantees ({@code why}: the
     * evidence of a classifier is a probability), by more than three of its standard errors: the same policy as an
     * estimate below a visited state ({@link #check}), so that an impossibly high and an impossibly low estimate both
     * exit 1 rather than one being printed with a warning. Within its noise above the bound it is printed with the
     * {@code above-bound} warning.
     */
    public static void checkAbove(Method method, double logZ, double stdErr, double bound, String why) {
        double noise = Double.isFinite(stdErr) ? 3 * stdErr : 0;
        if (logZ > bound + noise + 1e-9 * (1 + Math.abs(bound))) {
            throw new ImpossibleEstimateException(String.format(Locale.ROOT, "%s: the estimate %.4f lies above %.4f by "
                    + "more than three standard errors, and log Z cannot exceed it (%s): the estimate is wrong (the "
                    + "weights are dominated by a few chains or the estimator's assumptions fail); anneal more slowly, "
                    + "use more chains or another method", method, logZ, bound, why), logZ);
        }
    }

    /** {@link #check(String, double, double, OptionalDouble)} for {@code method}'s headline estimate. */
    public static void check(Method method, double logZ, double stdErr, OptionalDouble visitedBound) {
        check(method.toString(), logZ, stdErr, visitedBound);
    }

    /** {@link #check(String, double, double, OptionalDouble)} for an estimate without a standard error. */
    public static void check(Method method, double logZ, OptionalDouble visitedBound) {
        check(method.toString(), logZ, 0, visitedBound);
    }

    private static double tolerance(double bound) {
        return 1e-3 + 1e-6 * Math.abs(bound);
    }

    /**
     * The {@code below-bound} warning when the estimate lies below the bound (within its noise, or
     * {@link #check} would have refused it), the {@code single-state} warning when it sits within 0.01
     * above it (see {@link Warning#singleState}).
     */
    public static Optional<Warning> atBound(Method method, double logZ, OptionalDouble visitedBound) {
        if (visitedBound.isEmpty()) {
            return Optional.empty();
        }
        double bound = visitedBound.getAsDouble();
        if (logZ < bound - tolerance(bound)) {
            return Optional.of(Warning.belowBound(method, logZ, bound));
        }
        if (logZ - bound < 0.01) {
            return Optional.of(Warning.singleState(method, logZ, bound));
        }
        return Optional.empty();
    }
}
