package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.logz.estimate.AnnealingResult;
import org.logz.estimate.BidirectionalResult;
import org.logz.estimate.Method;
import org.logz.estimate.tempered.LevelEstimate;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.work.WorkEstimate;

/**
 * The one bound of every stochastic accuracy test (DESIGN §7): {@code |error| ≤ max(4·SE, absolute)}
 * and {@code SE ≤ maxStdErr}, both finite. The second half matters as much as the first: without a cap,
 * a broken (inflated) standard error lets any estimate pass.
 */
public final class Accuracy {
    /** Standard errors an estimate may miss the exact answer by. */
    public static final double K = 4;

    private Accuracy() {
    }

    /** Prints the comparison (for closing notes) and asserts the bound; {@code what} names the run and estimator. */
    public static void assertLands(String what, double estimate, double stdErr, double exact, double absolute,
                                   double maxStdErr) {
        double error = estimate - exact;
        System.out.printf(Locale.ROOT, "%s: %.4f ± %.4f, exact %.4f, error %+.4f (%+.1f SE)%n", what, estimate, stdErr, exact,
                error, error / stdErr);
        assertTrue(Double.isFinite(estimate) && Double.isFinite(stdErr) && stdErr >= 0,
                what + ": estimate " + estimate + ", SE " + stdErr);
        assertTrue(Math.abs(error) <= Math.max(K * stdErr, absolute), what + ": error " + error + ", SE " + stdErr);
        assertTrue(stdErr <= maxStdErr, what + ": standard error " + stdErr + " above " + maxStdErr
                + ", too large for the check to mean anything");
    }

    /** An annealing run's estimate and its delta-method standard error. */
    public static void assertLands(String name, AnnealingResult r, double exact, double maxStdErr) {
        assertLands(String.format(Locale.ROOT, "%s: %s (%d chains × %d steps, %.2f s)", name, r.method(), r.chains(), r.steps(),
                r.seconds()), r.logZ(), r.stdErr(), exact, 0.1, maxStdErr);
    }

    /** Every estimate of a tempered run ({@link #assertLands(String, LevelEstimate, double, double, double)}). */
    public static void assertAllLand(String name, TemperedResult r, double exact, double maxStdErr) {
        System.out.printf(Locale.ROOT, "%s: %d initial rounds (converged %s, max|r-c| %.2e), %d chain-sweeps, %.2f s%n",
                name, r.initialRounds(), r.converged(), r.finalDeviation(), r.sweeps(), r.seconds());
        for (LevelEstimate e : r.estimates()) {
            assertLands("  " + name + " " + e.method(), e, exact, 0.1, maxStdErr);
        }
    }

    /**
     * One reading of a tempered run. The Riemann sum's error holds its discretization error, which no number of samples
     * shrinks, so only its z-score is on trial, not the size of its error.
     */
    public static void assertLands(String what, LevelEstimate e, double exact, double absolute, double maxStdErr) {
        assertLands(what, e.logZ(), e.stdErr(), exact, absolute,
                e.method() == Method.TI_RIEMANN ? Double.POSITIVE_INFINITY : maxStdErr);
    }

    /** Every estimate of a bidirectional run, and its lower and upper bounds (Habeck 2017, eq. 7) around the truth. */
    public static void assertAllLand(String name, BidirectionalResult r, double exact, double maxStdErr) {
        System.out.printf(Locale.ROOT, "%s (%d + %d chains × %d steps, %.1f s):%n", name, r.forward().chains(),
                r.reverse().chains(), r.forward().steps(), r.seconds());
        for (WorkEstimate e : r.estimates()) {
            double logZ = r.logZ(e.method());
            double se = e.stdErr().orElseThrow();
            if (e.method() == Method.LOWER_BOUND || e.method() == Method.UPPER_BOUND) {
                System.out.printf(Locale.ROOT, "  %s %s %.4f ± %.4f, exact %.4f%n", name, e.method(), logZ, se, exact);
            } else {
                assertLands("  " + name + " " + e.method(), logZ, se, exact, 0.1, maxStdErr);
            }
        }
        // the bounds hold in expectation (Jensen); a run's own bounds may cross the truth by their noise
        double lower = r.logZ(Method.LOWER_BOUND) - 3 * r.estimate(Method.LOWER_BOUND).stdErr().orElseThrow();
        double upper = r.logZ(Method.UPPER_BOUND) + 3 * r.estimate(Method.UPPER_BOUND).stdErr().orElseThrow();
        assertTrue(lower < exact && exact < upper, name + ": bounds less 3 SE " + lower + " < " + exact + " < " + upper);
    }
}
