package org.logz.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;

/** The placement of GMS13's binned steps from the knots' mean slopes, and the option syntax. */
class Gms13Test {
    private static final Gms13.Settings FIVE = new Gms13.Settings(5, 10, 0, 1);

    /**
     * Mean slopes 0, 1, 5, 6, 6 at β = 0, ¼, ½, ¾, 1 give J = ¼·(1, 4, 1, 0): √J ∝ 1, 2, 1, 0, so 40 steps go 10, 20,
     * 10 and the empty bin keeps its one step (taken from the largest).
     */
    @Test
    void stepsFollowTheRootOfEachBinsDivergence() {
        double[] knots = Schedule.linear(4).betas();
        Gms13.Plan plan = Gms13.place(knots, new double[] {0, 1, 5, 6, 6}, 41, FIVE, 0);
        assertArrayEquals(new int[] {10, 20, 10, 1}, plan.steps());
        assertArrayEquals(new double[] {0.25, 1, 0.25, 0}, plan.divergence(), 1e-12);
        Schedule s = plan.schedule();
        assertEquals(41, s.steps());
        assertEquals(0.25, s.beta(10), 0);
        assertEquals(0.5, s.beta(30), 0);
        assertEquals(0.75, s.beta(40), 0);
        assertEquals(0.025, s.beta(1), 1e-15, "linear within the first bin");
    }

    /** A mean slope that sampling noise makes fall still gives its bin a floored share, never a negative one. */
    @Test
    void noiseThatMakesADivergenceNegativeIsFloored() {
        Gms13.Plan plan = Gms13.place(Schedule.linear(2).betas(), new double[] {0, 2, 1.9}, 100, new Gms13.Settings(3, 10,
                0, 1), 0);
        assertTrue(plan.divergence()[1] < 0);
        assertEquals(99, plan.steps()[0]);
        assertEquals(1, plan.steps()[1]);
    }

    @Test
    void settingsParseAndRefuseBadValues() {
        assertEquals(new Gms13.Settings(10, 100, 20, 50), Gms13.Settings.parse("gms13"));
        assertEquals(new Gms13.Settings(4, 1000, 1000, 5000), Gms13.Settings.parse("gms13:knots=4,chains=1000,burn-in=1000,sweeps=5000"));
        assertThrows(UserException.class, () -> Gms13.Settings.parse("gms13:knots=1"));
        assertThrows(UserException.class, () -> Gms13.Settings.parse("gms13:chains=1"));
        assertThrows(UserException.class, () -> Gms13.Settings.parse("gms13:sweeps=0"));
        assertThrows(UserException.class, () -> Gms13.Settings.parse("gms13:speed=2"));
        assertThrows(UserException.class, () -> Gms13.Settings.parse("gms13:knots=3,knots=4"));
        assertThrows(UserException.class, () -> Gms13.Settings.parse("gms13:knots=x"));
        assertThrows(UserException.class, () -> Gms13.Settings.parse("gms13:,"));
    }
}
