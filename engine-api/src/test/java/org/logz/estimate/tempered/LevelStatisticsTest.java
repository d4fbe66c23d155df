package org.logz.estimate.tempered;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LevelStatisticsTest {
    /**
     * A mean slope of β² integrates to 1/3; the trapezoid on 8 even steps misses by h²/6 = 1/384, which the batch means
     * of a tempered run cannot see (the hostile review's def_ti_sk_d16_x3: TI 3-5 SE low). Richardson's extrapolation
     * removes the h² term, exact for a quadratic slope, for TI and TI-RB alike.
     */
    @Test
    void tiAndTiRbAreExtrapolatedToTheGridsLimit() {
        int k = 9;
        double[] betas = new double[k];
        double[] values = new double[4 * k];
        for (int i = 0; i < k; i++) {
            betas[i] = i / 8.0;
            double slope = betas[i] * betas[i];
            values[i] = 2;
            values[k + i] = 2 * slope;
            values[2 * k + i] = 3 * slope;
            values[3 * k + i] = 3;
        }
        LevelStatistics s = new LevelStatistics(betas, values, 5);
        assertEquals(1 + 1.0 / 3, s.ti(1)[k - 1], 1e-12);
        assertEquals(1 + 1.0 / 3, s.tiRb(1)[k - 1], 1e-12);
        // below β = 1 the curve keeps the plain trapezoid: at β = 1/2, 1/24 + (1/8)²/6 · 1/2
        assertEquals(1 + 1.0 / 24 + 1.0 / 768, s.ti(1)[4], 1e-12);
    }
}
