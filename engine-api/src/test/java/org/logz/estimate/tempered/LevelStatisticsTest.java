package org.logz.estimate.tempered;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class LevelStatisticsTest {
    private static final int K = 9;

    /**
     * Nine even levels on [0, 1] whose mean slope is β² and whose slope variance is its derivative 2β, as in a tempered
     * family; each level visited three times with weight 2.
     */
    private static LevelStatistics quadratic() {
        double[] betas = new double[K];
        double[] values = new double[5 * K];
        for (int i = 0; i < K; i++) {
            betas[i] = i / 8.0;
            double slope = betas[i] * betas[i];
            double variance = 2 * betas[i];
            values[i] = 2;
            values[K + i] = 2 * slope;
            values[2 * K + i] = 3 * slope;
            values[3 * K + i] = 3;
            // Σ slope² of three visits whose sample variance (n - 1 denominator) is V: (n - 1)V + n·mean²
            values[4 * K + i] = 2 * variance + 3 * slope * slope;
        }
        return new LevelStatistics(betas, values, 5);
    }

    /**
     * A mean slope of β² integrates to 1/3; the trapezoid on 8 even steps misses by h²/6 = 1/384, which the batch means
     * of a tempered run cannot see (the hostile review's def_ti_sk_d16_x3: TI 3-5 SE low). Richardson's extrapolation
     * removes the h² term, exact for a quadratic slope, for TI and TI-RB alike.
     */
    @Test
    void tiAndTiRbAreExtrapolatedToTheGridsLimit() {
        LevelStatistics s = quadratic();
        assertEquals(1 + 1.0 / 3, s.ti(1)[K - 1], 1e-12);
        assertEquals(1 + 1.0 / 3, s.tiRb(1)[K - 1], 1e-12);
        // below β = 1 the curve keeps the plain trapezoid: at β = 1/2, 1/24 + (1/8)²/6 · 1/2
        assertEquals(1 + 1.0 / 24 + 1.0 / 768, s.ti(1)[4], 1e-12);
    }

    /**
     * Friel et al.'s correction, -(h²/12) Σ (V_i - V_{i-1}) = -(1/64)/12 · 2 = -1/384, removes the trapezoid's error
     * exactly where the variance is the mean slope's derivative; the right Riemann sum is h³ Σ j² = 204/512, off by its
     * distance from the trapezoid, h/2 · (E(1) - E(0)) = 1/16.
     */
    @Test
    void riemannAndFrielAgainstTheirClosedForms() {
        LevelStatistics s = quadratic();
        assertEquals(1 + 1.0 / 3, s.tiFriel(1)[K - 1], 1e-12);
        assertEquals(1 + 204.0 / 512, s.tiRiemann(1)[K - 1], 1e-12);
        assertEquals(1.0 / 16, s.riemannError(), 1e-12);
        assertEquals(1.0 / 16, s.tiRiemann(0)[K - 1] - Trapezoid.curve(s.levelBetas(), squares(), 0)[K - 1], 1e-12);
    }

    /** TS reads eq. 12 off the visit counts, each plus 0.1 (Carlson et al. §2.4). */
    @Test
    void tsIsEq12OnVisitCounts() {
        double[] betas = {0, 0.5, 1};
        double[] values = new double[15];
        values[9] = 4;
        values[10] = 0;
        values[11] = 9;
        double[] logZHat = {1, 2, 3};
        double[] logPrior = {Math.log(0.5), Math.log(0.25), Math.log(0.25)};
        double[] ts = new LevelStatistics(betas, values, 13).ts(logZHat, logPrior);
        assertEquals(1, ts[0], 0);
        assertEquals(2 + Math.log(0.1 / 4.1) - Math.log(0.25) + Math.log(0.5), ts[1], 1e-12);
        assertEquals(3 + Math.log(9.1 / 4.1) - Math.log(0.25) + Math.log(0.5), ts[2], 1e-12);
    }

    /**
     * Eq. 16 from three groups: occupancies of the base 0.2, 0.3, 0.4 (variance of their mean 0.01/3) and of β = 1 the
     * same in every group, so the bias is σ_1²/(2ĉ_1²) = 1/54 and the variance σ_1²/ĉ_1² = 1/27; with the two moving
     * against each other (0.4, 0.5, 0.6 and 0.6, 0.5, 0.4) the covariance adds: 4·(0.01/3)/0.25 = 4/75.
     */
    @Test
    void deltaMethodAgainstEq16ByHand() {
        DeltaMethod still = DeltaMethod.of(List.of(twoLevels(0.2, 0.5), twoLevels(0.3, 0.5), twoLevels(0.4, 0.5)));
        assertEquals(1.0 / 54, still.bias(), 1e-12);
        assertEquals(Math.sqrt(1.0 / 27), still.stdErr(), 1e-12);
        DeltaMethod opposed = DeltaMethod.of(List.of(twoLevels(0.4, 0.6), twoLevels(0.5, 0.5), twoLevels(0.6, 0.4)));
        assertEquals(0, opposed.bias(), 1e-12);
        assertEquals(Math.sqrt(4.0 / 75), opposed.stdErr(), 1e-12);
    }

    private static LevelStatistics twoLevels(double base, double top) {
        double[] values = new double[10];
        values[0] = 10 * base;
        values[1] = 10 * top;
        return new LevelStatistics(new double[] {0, 1}, values, 10);
    }

    private static double[] squares() {
        double[] s = new double[K];
        for (int i = 0; i < K; i++) {
            s[i] = (i / 8.0) * (i / 8.0);
        }
        return s;
    }
}
