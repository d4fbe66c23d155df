package org.logz.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;

/** The placement of VAROPT steps from a variance profile, the decelerated cap and the option syntax. */
class VaroptTest {
    private static final Varopt.Settings PLAIN = new Varopt.Settings(100, 10, 1);

    @Test
    void constantVarianceGivesTheLinearSchedule() {
        double[] grid = Schedule.linear(50).betas();
        double[] v = new double[51];
        java.util.Arrays.fill(v, 4.0);
        Schedule s = Varopt.place(grid, v, 20, PLAIN);
        for (int k = 0; k <= 20; k++) {
            assertEquals(k / 20.0, s.beta(k), 1e-12);
        }
    }

    /** With √V = 1/(β + 0.01) the steps keep Δβ·√V constant: geometric in β + 0.01. */
    @Test
    void stepsKeepTheThermodynamicLengthConstant() {
        int n = 20001;
        double[] grid = Schedule.linear(n - 1).betas();
        double[] v = new double[n];
        for (int k = 0; k < n; k++) {
            v[k] = 1 / Math.pow(grid[k] + 0.01, 2);
        }
        Schedule s = Varopt.place(grid, v, 40, PLAIN);
        double ratio = Math.pow(1.01 / 0.01, 1.0 / 40);
        for (int k = 1; k <= 40; k++) {
            assertEquals(ratio, (s.beta(k) + 0.01) / (s.beta(k - 1) + 0.01), 2e-3 * ratio, "step " + k);
        }
    }

    @Test
    void deceleratedStepsStayBelowTheCapAndFillThePath() {
        double[] betas = {0, 0.5, 0.8, 0.9, 0.95, 1};
        double[] out = Varopt.decelerate(betas, 0.25);
        assertEquals(0, out[0]);
        assertEquals(1, out[5]);
        for (int k = 1; k <= 5; k++) {
            assertTrue(out[k] - out[k - 1] <= 0.25 + 1e-12, "step " + k + ": " + (out[k] - out[k - 1]));
            assertTrue(out[k] > out[k - 1]);
        }
        // the short steps keep their proportions: stretched by one factor
        assertEquals((out[4] - out[3]) / (out[5] - out[4]), 1.0, 1e-9);
        assertThrows(UserException.class, () -> Varopt.decelerate(betas, 0.1), "5 steps of at most 0.1 cannot reach 1");
    }

    @Test
    void smoothingIgnoresMissingValuesAndKeepsConstants() {
        double[] v = {2, 2, Double.NaN, 2, 2, 2};
        for (double x : Varopt.smooth(v)) {
            assertEquals(2, x, 1e-12);
        }
    }

    @Test
    void settingsParse() {
        Varopt.Settings s = Varopt.Settings.parse("varopt:pilot=50,max-step=0.01,chains=20");
        assertEquals(50, s.pilotSteps());
        assertEquals(20, s.pilotChains());
        assertEquals(0.01, s.maxStep());
        assertEquals(Varopt.PILOT_STEPS, Varopt.Settings.parse("VAROPT").pilotSteps());
        assertThrows(UserException.class, () -> Varopt.Settings.parse("varopt:pilot=x"));
        assertThrows(UserException.class, () -> Varopt.Settings.parse("varopt:speed=2"));
        assertThrows(UserException.class, () -> Varopt.Settings.parse("varopt:max-step=0"));
        assertThrows(UserException.class, () -> Varopt.Settings.parse("varopt:pilot=1"));
        assertThrows(UserException.class, () -> Varopt.Settings.parse("varopt:pilot=100,pilot=200"));
        assertThrows(UserException.class, () -> Varopt.Settings.parse("varopt:pilot=100,"));
        assertThrows(UserException.class, () -> Varopt.Settings.parse("varopt:,"));
        assertEquals("varopt:pilot=50,chains=20,max-step=0.01", s.name(), "the label reproduces the run");
    }
}
