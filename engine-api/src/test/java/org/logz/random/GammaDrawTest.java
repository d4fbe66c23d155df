package org.logz.random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class GammaDrawTest {
    /** Gamma(a, 1) has mean and variance a and E[log X] = ψ(a); 10^5 draws at each shape against them. */
    @Test
    void drawsHaveTheGammaMoments() {
        int n = 100_000;
        for (double a : new double[] {1, 2, 7.5, 1e4}) {
            double sum = 0;
            double squares = 0;
            double logs = 0;
            for (int i = 0; i < n; i++) {
                double l = GammaDraw.logStandard(a, 42, i, 3, StreamTag.HISTOGRAM_GIBBS);
                double x = Math.exp(l);
                sum += x;
                squares += x * x;
                logs += l;
            }
            double mean = sum / n;
            double variance = squares / n - mean * mean;
            assertEquals(a, mean, 4 * Math.sqrt(a / n), "mean at shape " + a);
            assertEquals(a, variance, 0.05 * a, "variance at shape " + a);
            // ψ(a) ≈ log a - 1/(2a) - 1/(12a²) for a ≥ 7.5; ψ(1) = -γ, ψ(2) = 1 - γ
            double digamma = a == 1 ? -0.5772156649 : a == 2 ? 0.4227843351
                    : Math.log(a) - 1 / (2 * a) - 1 / (12 * a * a) + 1 / (120 * Math.pow(a, 4));
            double logSd = a == 1 ? Math.PI / Math.sqrt(6) : Math.sqrt(1 / a + 1 / (2 * a * a) + 1.0 / (a * a * a));
            assertEquals(digamma, logs / n, 4 * logSd / Math.sqrt(n), "E log X at shape " + a);
        }
    }

    @Test
    void aDrawIsAFunctionOfItsKey() {
        assertEquals(GammaDraw.logStandard(3, 7, 11, 13, 33), GammaDraw.logStandard(3, 7, 11, 13, 33), 0);
        assertThrows(IllegalArgumentException.class, () -> GammaDraw.logStandard(0.5, 1, 0, 0, 33));
        assertThrows(IllegalArgumentException.class, () -> GammaDraw.logStandard(Double.NaN, 1, 0, 0, 33));
    }
}
