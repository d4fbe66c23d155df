package org.logz.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;

import org.junit.jupiter.api.Test;
import org.logz.base.EstimationException;

class IncreasingRootTest {
    private static final Duration BOUNDED = Duration.ofSeconds(10);

    /** A smooth strictly increasing function has its root found to 1e-12. */
    @Test
    void findsAnOrdinaryRootToFullPrecision() {
        double root = IncreasingRoot.solve("exp(x) - 5", x -> new double[] {Math.exp(x) - 5, Math.exp(x)}, 0, 1);
        assertEquals(Math.log(5), root, 1e-12);
    }

    /** A root outside the first bracket, on either side, is reached by widening. */
    @Test
    void widensTheBracketToAFarRoot() {
        DoubleFunction<double[]> cube = x -> new double[] {x * x * x - 1000, Math.max(3 * x * x, 1e-300)};
        assertEquals(10, IncreasingRoot.solve("cube", cube, -1, 1), 1e-12);
        DoubleFunction<double[]> atan = x -> new double[] {Math.atan(x + 40), 1 / (1 + (x + 40) * (x + 40))};
        assertEquals(-40, IncreasingRoot.solve("atan", atan, 0, 1), 1e-12);
    }

    /** A root at 1e29 is found, to relative precision, in bounded time. */
    @Test
    void rootAtTenToTheTwentyNineIsFound() {
        double root = assertTimeoutPreemptively(BOUNDED,
                () -> IncreasingRoot.solve("x - 1e29", x -> new double[] {x - 1e29, 1}, 0, 1));
        assertEquals(1e29, root, 1e29 * 1e-12);
    }

    /** A root at -1e300 is found, to relative precision, in bounded time. */
    @Test
    void rootAtMinusTenToTheThreeHundredIsFound() {
        double root = assertTimeoutPreemptively(BOUNDED,
                () -> IncreasingRoot.solve("x + 1e300", x -> new double[] {x + 1e300, 1}, 0, 1));
        assertEquals(-1e300, root, 1e300 * 1e-12);
    }

    /** A root the doubling steps cannot reach before overflowing ends with an exception, not a hang. */
    @Test
    void rootBeyondTheWideningRangeFailsCleanly() {
        NonConvergenceException e = assertTimeoutPreemptively(BOUNDED, () -> assertThrows(NonConvergenceException.class,
                () -> IncreasingRoot.solve("x - 1.5e308", x -> new double[] {x - 1.5e308, 1}, 0, 1)));
        assertTrue(e.getMessage().startsWith("x - 1.5e308 has no root within the range of doubles"), e.getMessage());
    }

    /** A bracket near Double.MAX_VALUE (its midpoint overflows) gives the finite root or a refusal, not +Infinity. */
    @Test
    void bracketNearTheLargestDoubleDoesNotYieldInfinity() {
        DoubleFunction<double[]> f = x -> new double[] {x - 1.2e308, 1};
        OptionalDouble root = assertTimeoutPreemptively(BOUNDED, () -> solveOrRefuse("x - 1.2e308", f, 1e308, 1.7e308));
        root.ifPresent(r -> assertEquals(1.2e308, r, 1.2e308 * 1e-12));
    }

    /**
     * Newton steps that undershoot (a slope fifty times too steep, as BAR's once was where its log-sum-exp rounded)
     * creep by 2% of the distance per step: 1e40 needs thousands of them, bisection about 190.
     */
    @Test
    void creepingNewtonStepsGiveWayToBisection() {
        double root = assertTimeoutPreemptively(BOUNDED,
                () -> IncreasingRoot.solve("x + 1 with slope 50", x -> new double[] {x + 1, 50}, -3, 1e40));
        assertEquals(-1, root, 1e-12);
    }

    /** A positive function that never crosses zero ends with an exception naming the equation. */
    @Test
    void functionWithoutARootFailsInsteadOfHanging() {
        NonConvergenceException e = assertTimeoutPreemptively(BOUNDED, () -> assertThrows(NonConvergenceException.class,
                () -> IncreasingRoot.solve("positive", x -> new double[] {1 + Math.exp(-Math.abs(x)), 1}, 0, 1)));
        assertTrue(e.getMessage().startsWith("positive has no root"), e.getMessage());
        assertTimeoutPreemptively(BOUNDED, () -> assertThrows(NonConvergenceException.class,
                () -> IncreasingRoot.solve("negative", x -> new double[] {-1, 1}, 0, 1)));
    }

    /** A saturating function (slope underflowing to 0 far out) is refused, not iterated forever. */
    @Test
    void saturatingFunctionWithoutARootFails() {
        assertTimeoutPreemptively(BOUNDED, () -> assertThrows(NonConvergenceException.class,
                () -> IncreasingRoot.solve("atan + 2", x -> new double[] {Math.atan(x) + 2, 1 / (1 + x * x)}, 0, 1)));
    }

    /** NaN from the function is an exception that names the equation and the point. */
    @Test
    void nanValueIsRefused() {
        NonConvergenceException e = assertThrows(NonConvergenceException.class,
                () -> IncreasingRoot.solve("nan", x -> new double[] {Double.NaN, 1}, 0, 1));
        assertTrue(e.getMessage().startsWith("nan is not finite at "), e.getMessage());
    }

    /** NaN met only while widening is refused too. */
    @Test
    void nanFarFromTheStartIsRefused() {
        assertTimeoutPreemptively(BOUNDED, () -> assertThrows(NonConvergenceException.class,
                () -> IncreasingRoot.solve("nan above 10", x -> new double[] {x > 10 ? Double.NaN : x - 20, 1}, 0, 1)));
    }

    /** A zero or negative slope (the function is not increasing there) is refused. */
    @Test
    void nonPositiveSlopeIsRefused() {
        NonConvergenceException e = assertThrows(NonConvergenceException.class,
                () -> IncreasingRoot.solve("flat", x -> new double[] {x - 0.5, 0}, 0, 1));
        assertTrue(e.getMessage().contains("slope 0.0"), e.getMessage());
        assertThrows(NonConvergenceException.class,
                () -> IncreasingRoot.solve("decreasing", x -> new double[] {x, -1}, 0, 1));
    }

    /** Callers that catch estimation failures also catch non-convergence. */
    @Test
    void nonConvergenceIsAnEstimationException() {
        assertInstanceOf(EstimationException.class, new NonConvergenceException("x"));
    }

    /** The root, or empty where the solver refuses with a {@link NonConvergenceException}. */
    private static OptionalDouble solveOrRefuse(String what, DoubleFunction<double[]> f, double lo, double hi) {
        try {
            return OptionalDouble.of(IncreasingRoot.solve(what, f, lo, hi));
        } catch (NonConvergenceException refused) {
            return OptionalDouble.empty();
        }
    }
}
