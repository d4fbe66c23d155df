package org.logz.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LogSpaceTest {
    @Test
    void softplusAtExtremes() {
        assertEquals(Math.log(2), LogSpace.softplus(0), 1e-16);
        assertEquals(1000.0, LogSpace.softplus(1000), 0);
        assertEquals(Math.exp(-1000), LogSpace.softplus(-1000), 0);
        assertEquals(Math.exp(-30) - Math.exp(-60) / 2, LogSpace.softplus(-30), 1e-40);
        assertEquals(30 + Math.exp(-30), LogSpace.softplus(30), 1e-14);
        assertEquals(Double.MAX_VALUE, LogSpace.softplus(Double.MAX_VALUE), 0);
        assertEquals(0.0, LogSpace.softplus(-Double.MAX_VALUE), 0);
    }

    @Test
    void fastSoftplusIsAbsolutelyAccurate() {
        for (double x = -50; x <= 50; x += 0.37) {
            assertEquals(LogSpace.softplus(x), LogSpace.softplusFast(x), 4e-16 * Math.max(1, Math.abs(x)), "x=" + x);
        }
    }

    @Test
    void sigmoidNeverOverflows() {
        assertEquals(1.0, LogSpace.sigmoid(800), 0);
        assertEquals(0.0, LogSpace.sigmoid(-800), 1e-300);
        assertEquals(0.5, LogSpace.sigmoid(0), 0);
        assertEquals(1.0 / (1.0 + Math.exp(3)), LogSpace.sigmoid(-3), 1e-16);
    }

    @Test
    void logSumExpAtExtremes() {
        assertEquals(1000 + Math.log(2), LogSpace.logSumExp(new double[] {1000, 1000}), 1e-12);
        assertEquals(-1000 + Math.log(3), LogSpace.logSumExp(new double[] {-1000, -1000, -1000}), 1e-12);
        assertEquals(5.0, LogSpace.logSumExp(new double[] {5, Double.NEGATIVE_INFINITY}), 0);
        assertEquals(Double.NEGATIVE_INFINITY, LogSpace.logSumExp(new double[] {Double.NEGATIVE_INFINITY}), 0);
        assertEquals(Double.NEGATIVE_INFINITY, LogSpace.logSumExp(new double[0]), 0);
        assertEquals(1e300, LogSpace.logSumExp(new double[] {1e300, 0}), 0);
        assertTrue(Double.isNaN(LogSpace.logSumExp(new double[] {Double.NaN, 1})));
        assertEquals(Math.log(Math.exp(1) + Math.exp(2)), LogSpace.logAddExp(1, 2), 1e-15);
        assertEquals(3.0, LogSpace.logAddExp(Double.NEGATIVE_INFINITY, 3.0), 0);
    }

    @Test
    void effectiveSampleSize() {
        assertEquals(4.0, LogSpace.ess(new double[] {-700, -700, -700, -700}, 4), 1e-12);
        assertEquals(1.0, LogSpace.ess(new double[] {0, -1e4, -1e4}, 3), 1e-12);
        assertEquals(0.0, LogSpace.ess(new double[] {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY}, 2), 0);
        // weights 1 and 3: (1+3)^2 / (1+9) = 1.6
        assertEquals(1.6, LogSpace.ess(new double[] {0, Math.log(3)}, 2), 1e-12);
        assertEquals(1.6, LogSpace.ess(new double[] {800, 800 + Math.log(3)}, 2), 1e-12);
    }
}
