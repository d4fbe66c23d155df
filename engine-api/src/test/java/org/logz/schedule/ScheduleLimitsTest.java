package org.logz.schedule;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.logz.memory.InsufficientMemoryException;
import org.logz.model.toy.GaussianToy;

class ScheduleLimitsTest {
    private static void assertRefused(Runnable r, String fragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(fragment), "'" + e.getMessage() + "' lacks '" + fragment + "'");
    }

    /** More steps than one array holds (2^31 and beyond) are refused with the limit in the message. */
    @Test
    void stepsBeyondOneArrayAreRefused() {
        String limit = "longer than the " + Schedule.MAX_STEPS;
        assertRefused(() -> Schedule.requireSteps(1L << 31), "a schedule of 2147483648 steps is " + limit);
        assertRefused(() -> Schedule.requireSteps(Long.MAX_VALUE), limit);
        assertRefused(() -> Schedule.requireSteps(Schedule.MAX_STEPS + 1L), limit);
        assertRefused(() -> Schedule.linear(Integer.MAX_VALUE), limit);
        assertRefused(() -> Schedule.geometric(Integer.MAX_VALUE, 1e-3), limit);
        assertRefused(() -> Schedule.sigmoid(Integer.MAX_VALUE, 4), limit);
        assertRefused(() -> EqualDivergence.of(Integer.MAX_VALUE, GaussianToy.habeck()::divergence), limit);
    }

    /** Fewer than one step is refused. */
    @Test
    void fewerThanOneStepIsRefused() {
        assertRefused(() -> Schedule.requireSteps(0), "at least 1 step, got 0");
        assertRefused(() -> Schedule.requireSteps(-5), "got -5");
        assertRefused(() -> Schedule.linear(Integer.MIN_VALUE), "at least 1 step");
    }

    /** The largest array-sized schedule is checked against the heap before anything is allocated. */
    @Test
    void maxStepsIsCheckedAgainstTheHeap() {
        assumeTrue(Runtime.getRuntime().maxMemory() < 40L << 30, "a heap of 40 GiB or more could hold it");
        InsufficientMemoryException e = assertThrows(InsufficientMemoryException.class,
                () -> Schedule.requireSteps(Schedule.MAX_STEPS));
        assertTrue(e.getMessage().startsWith("a schedule of " + Schedule.MAX_STEPS + " steps needs "), e.getMessage());
        assertTrue(e.getMessage().contains("GiB"), e.getMessage());
    }

    /** Piecewise segments whose step counts add up past 2^31 are refused, not wrapped to a negative length. */
    @Test
    void piecewiseStepTotalsDoNotOverflow() {
        String limit = "longer than the " + Schedule.MAX_STEPS;
        int[] most = {Integer.MAX_VALUE, Integer.MAX_VALUE};
        assertRefused(() -> Schedule.piecewise("p", new double[] {0.5, 1}, most), "a schedule of 4294967294 steps");
        assertRefused(() -> Schedule.piecewise("p", new double[] {0.5, 1}, new int[] {1 << 30, 1 << 30}), limit);
        assertRefused(() -> Schedule.parse("piecewise:0.5/2147483647,1/2147483647", 0), limit);
        assertRefused(() -> Schedule.parse("piecewise:1/3000000000", 0), "has a bad step count");
        assertRefused(() -> Schedule.parse("piecewise:0.5/0,1/10", 0),
                "segment 1 of schedule piecewise:0.5/0,1/10 has 0 steps");
    }

    /** An ordinary schedule passes the same checks. */
    @Test
    void ordinarySizesPass() {
        assertDoesNotThrow(() -> Schedule.requireSteps(1));
        assertDoesNotThrow(() -> Schedule.requireSteps(1_000_000));
        assertEquals(3, Schedule.piecewise("p", new double[] {0.5, 1}, new int[] {1, 2}).steps());
    }
}
