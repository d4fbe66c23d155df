package org.logz.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ScheduleTest {
    @Test
    void namedSchedulesRunFromZeroToOne() {
        for (String name : new String[] {"linear", "geometric", "geometric:1e-5", "sigmoid", "sigmoid:8"}) {
            Schedule s = Schedule.parse(name, 37);
            assertEquals(37, s.steps(), name);
            assertEquals(0.0, s.beta(0));
            assertEquals(1.0, s.beta(37));
        }
        assertEquals(0.25, Schedule.linear(4).beta(1), 0);
        assertEquals(1e-3, Schedule.geometric(10, 1e-3).beta(1), 1e-15);
        Schedule sig = Schedule.sigmoid(100, 4);
        assertEquals(0.5, sig.beta(50), 1e-12);
        assertTrue(sig.beta(1) - sig.beta(0) < sig.beta(51) - sig.beta(50), "sigmoid is dense at the ends");
    }

    @Test
    void salakhutdinovScheduleHasItsPublishedShape() {
        Schedule s = Schedule.parse("salakhutdinov", 0);
        assertEquals(14_500, s.steps());
        assertEquals(0.5, s.beta(500), 0);
        assertEquals(0.9, s.beta(4500), 0);
        assertEquals(1e-3, s.beta(1), 1e-15);
        assertEquals(1e-5, s.beta(14_500) - s.beta(14_499), 1e-12);
        assertArrayEquals(s.betas(), Schedule.parse("piecewise:0.5/500,0.9/4000,1/10000", 0).betas());
    }

    /** salakhutdinov:K keeps the three segments and their 500 : 4000 : 10000 shares at any K ≥ 3. */
    @Test
    void salakhutdinovScalesToAnyNumberOfSteps() {
        assertArrayEquals(Schedule.parse("salakhutdinov", 0).betas(), Schedule.parse("salakhutdinov:14500", 0).betas());
        assertEquals("salakhutdinov", Schedule.parse("salakhutdinov:14500", 0).name());
        Schedule thousand = Schedule.parse("salakhutdinov:1000", 0);
        assertEquals(1000, thousand.steps());
        // 1000 × (500, 4000, 10000) / 14500 = 34.5, 275.9, 689.7: floors 34, 275, 689 and the two largest remainders
        assertEquals(0.5, thousand.beta(34), 0);
        assertEquals(0.9, thousand.beta(34 + 276), 0);
        assertArrayEquals(new int[] {1, 1, 1}, Schedule.apportion(3, new double[] {500, 4000, 10000}));
        assertArrayEquals(new int[] {1, 1, 2}, Schedule.apportion(4, new double[] {500, 4000, 10000}));
        assertArrayEquals(new int[] {2, 1}, Schedule.apportion(3, new double[] {1, 1}), "ties go to the earlier share");
        assertMessage(() -> Schedule.parse("salakhutdinov:2", 0), "at least 3");
        assertMessage(() -> Schedule.parse("salakhutdinov:1.5", 0), "not a whole number");
        assertMessage(() -> Schedule.parse("salakhutdinov:1000", 10), "sets its own number of steps");
    }

    @Test
    void invalidSchedulesAreRejectedWithReasons() {
        assertMessage(() -> new Schedule("x", new double[] {0, 0.5, 0.5, 1}), "not strictly increasing at step 2");
        assertMessage(() -> new Schedule("x", new double[] {0.1, 1}), "must run from 0 to 1");
        assertMessage(() -> new Schedule("x", new double[] {0, 0.9}), "must run from 0 to 1");
        assertMessage(() -> new Schedule("x", new double[] {0, Double.NaN, 1}), "not strictly increasing");
        assertMessage(() -> new Schedule("x", new double[] {0}), "at least one step");
        assertMessage(() -> Schedule.parse("linear", 0), "at least 1 step");
        assertMessage(() -> Schedule.parse("cosine", 10), "unknown schedule");
        assertMessage(() -> Schedule.parse("geometric:2", 10), "0 < βmin < 1");
        assertMessage(() -> Schedule.parse("piecewise:0.5/10,0.4/10,1/10", 0), "not strictly increasing");
        assertMessage(() -> Schedule.parse("piecewise:0.5/10,0.9/10", 0), "must run from 0 to 1");
        assertMessage(() -> Schedule.parse("piecewise:0.5-10", 0), "is not β/steps");
        assertMessage(() -> Schedule.parse("salakhutdinov", 100), "sets its own number of steps");
        assertMessage(() -> Schedule.parse("linear:3", 10), "takes no parameter");
    }

    private static void assertMessage(Runnable r, String fragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(fragment), "'" + e.getMessage() + "' lacks '" + fragment + "'");
    }
}
