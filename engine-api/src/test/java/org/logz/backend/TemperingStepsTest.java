package org.logz.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The host reference of the temperature move on its own: the softmax, the draws it makes and the sums it keeps. */
class TemperingStepsTest {
    private static final double[] LOG_F = {-3.0, 1.5, 0.25, 2.0, -40.0, 0.0, 7.0, 7.0, 6.0, -1.0};
    private static final double[] WEIGHT = {0.5, -1.0, 0.0, -2.0, 3.0};

    @Test
    void probabilitiesAreTheSoftmaxOfLogFPlusTheLevelWeights() {
        int levels = WEIGHT.length;
        double[] q = new double[LOG_F.length];
        for (int r = 0; r < 2; r++) {
            TemperingSteps.draw(LOG_F, WEIGHT, r, r, levels, 1, 0, q);
            double total = 0;
            for (int k = 0; k < levels; k++) {
                total += Math.exp(LOG_F[r * levels + k] + WEIGHT[k]);
            }
            double sum = 0;
            for (int k = 0; k < levels; k++) {
                double expected = Math.exp(LOG_F[r * levels + k] + WEIGHT[k]) / total;
                assertEquals(expected, q[r * levels + k], 1e-15 + 1e-12 * expected, "chain " + r + " level " + k);
                sum += q[r * levels + k];
            }
            assertEquals(1.0, sum, 1e-12);
        }
    }

    /** 40 000 draws of chain 0: every level's frequency within 5 binomial standard deviations of q. */
    @Test
    void drawsFollowTheProbabilities() {
        int levels = WEIGHT.length;
        int draws = 40_000;
        int[] counts = new int[levels];
        double[] q = new double[LOG_F.length];
        for (int step = 0; step < draws; step++) {
            counts[TemperingSteps.draw(LOG_F, WEIGHT, 0, 0, levels, 5, step, q)]++;
        }
        for (int k = 0; k < levels; k++) {
            double p = q[k];
            double sd = Math.sqrt(draws * p * (1 - p));
            assertTrue(Math.abs(counts[k] - draws * p) <= 5 * sd + 1, "level " + k + ": " + counts[k] + " draws, expected "
                    + draws * p);
        }
    }

    @Test
    void accumulateAddsPerGroupSumsInChainOrder() {
        int count = 5;
        int levels = 2;
        double[] q = {0.25, 0.75, 1.0, 0.0, 0.5, 0.5, 0.1, 0.9, 0.6, 0.4};
        double[] slope = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        int[] level = {0, 1, 1, 0, 0};
        double[] statistics = new double[TemperingSteps.SUMS * levels * 2];
        statistics[0] = 100;
        TemperingSteps.accumulate(q, slope, level, count, levels, 2, statistics);
        // group 0: chains 0, 2, 4; group 1: chains 1, 3
        double[] expected = {
            100 + 0.25 + 0.5 + 0.6, 0.75 + 0.5 + 0.4,
            0.25 * 1 + 0.5 * 5 + 0.6 * 9, 0.75 * 2 + 0.5 * 6 + 0.4 * 10,
            1 + 9, 6,
            2, 1,
            1 + 81, 36,
            1.0 + 0.1, 0.0 + 0.9,
            1.0 * 3 + 0.1 * 7, 0.9 * 8,
            7, 4,
            1, 1,
            49, 16};
        for (int e = 0; e < expected.length; e++) {
            assertEquals(expected[e], statistics[e], 1e-12, "statistic " + e);
        }
    }
}
