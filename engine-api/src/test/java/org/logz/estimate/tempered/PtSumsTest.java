package org.logz.estimate.tempered;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.junit.jupiter.api.Test;

class PtSumsTest {
    /**
     * Two levels whose work values follow Crooks' theorem exactly (Gaussian forward work of mean m and variance s², so
     * log(Z_1/Z_0) = m + s²/2 and the reverse work is Gaussian of mean -(m + s²)): the fixed-constant acceptance ratio
     * recovers the log ratio for a constant at the optimum and for constants far from it, only with more noise.
     */
    @Test
    void theAcceptanceRatioWithAFixedConstantIsConsistentForAnyConstant() {
        double m = 1.0;
        double s = 1.5;
        double exact = m + s * s / 2;
        for (double constant : new double[] {exact, exact - 2, exact + 3}) {
            Random random = new Random(11);
            PtSums sums = new PtSums(1, new double[] {0, 1}, new double[] {constant});
            for (int i = 0; i < 400_000; i++) {
                double forward = m + s * random.nextGaussian();
                double reverse = -(m + s * s) + s * random.nextGaussian();
                // chain 0 at level 0 holds w_F as its upper neighbour's density, chain 1 at level 1 w_R as its lower's
                sums.add(new int[] {0, 1}, new double[] {0, 0}, new double[] {0, 0, 0, reverse, forward, 0});
            }
            assertEquals(exact, sums.bar(0)[1], 0.02, "constant " + constant);
            assertEquals(exact, sums.bar(0, 0)[1], 0.02, "constant " + constant + ", the one ladder alone");
        }
    }

    @Test
    void thermodynamicIntegrationIsTheTrapezoidOfTheMeanSlopes() {
        PtSums sums = new PtSums(2, new double[] {0, 0.5, 1}, null);
        sums.add(new int[] {0, 1, 2, 2, 1, 0}, new double[] {1, 2, 3, 5, 6, 7}, new double[18]);
        sums.add(new int[] {0, 1, 2, 2, 1, 0}, new double[] {3, 4, 5, 7, 8, 9}, new double[18]);
        // ladder 0: slopes 2, 3, 4; ladder 1: 8, 7, 6; pooled 5, 5, 5
        assertEquals(10 + 0.5 * 2.5 + 0.5 * 3.5, sums.ti(10, sums.meanSlopes(0))[2], 1e-12);
        assertEquals(10 + 5, sums.ti(10, sums.meanSlopes())[2], 1e-12);
        assertEquals(2.5, sums.constants()[0], 1e-12);
    }

    /** For a quadratic integrand the trapezoid's error falls exactly as h², so Richardson's extrapolation is exact. */
    @Test
    void theTrapezoidIsExtrapolatedToAFineGrid() {
        double[] betas = new double[9];
        double[] slopes = new double[9];
        for (int j = 0; j < 9; j++) {
            betas[j] = j / 8.0;
            slopes[j] = betas[j] * betas[j];
        }
        PtSums sums = new PtSums(1, betas, null);
        assertEquals(1.0 / 3 + 1.0 / 8 / 8 / 6, sums.ti(0, slopes)[8], 1e-12, "the trapezoid's error, h²/6 at h = 1/8");
        assertEquals(1.0 / 3, sums.tiExtrapolated(0, slopes)[8], 1e-12);
        assertEquals(0.5, sums.tiExtrapolated(0, betas)[8], 1e-15, "a linear slope needs no correction");
    }

    @Test
    void logSigmoidIsFiniteFarIntoBothTails() {
        assertEquals(-800, PtSums.logSigmoid(-800), 1e-12);
        assertEquals(-Math.exp(-800), PtSums.logSigmoid(800), 1e-300);
        assertEquals(-Math.log(2), PtSums.logSigmoid(0), 1e-15);
    }
}
