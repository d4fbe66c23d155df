package org.logz.estimate.tempered;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LadderTuningTest {
    @Test
    void levelsMoveToEqualStepsOfTheCommunicationBarrier() {
        double[] betas = {0, 0.25, 0.5, 0.75, 1};
        // the first pair rejects three times as often as the others: Λ = 0.6 + 3·0.2 = 1.2, 0.3 per new pair
        double[] tuned = LadderTuning.tune(betas, new double[] {0.4, 0.8, 0.8, 0.8}).betas();
        assertEquals(0, tuned[0]);
        assertEquals(0.3 / 0.6 * 0.25, tuned[1], 1e-12);
        assertEquals(0.25, tuned[2], 1e-12);
        assertEquals(0.5 + 0.25 * 0.1 / 0.2, tuned[3], 1e-12);
        assertEquals(1, tuned[4]);
        assertEquals(1.2, LadderTuning.barrier(new double[] {0.4, 0.8, 0.8, 0.8}), 1e-12);
    }

    @Test
    void pairsThatNeverRejectOrWereNeverProposedStillGiveAStrictlyIncreasingLadder() {
        double[] tuned = LadderTuning.tune(new double[] {0, 0.1, 0.2, 1}, new double[] {1, 1, Double.NaN}).betas();
        for (int j = 1; j < tuned.length; j++) {
            assertTrue(tuned[j] > tuned[j - 1], "level " + j);
        }
        // a pair never proposed counts as a full rejection
        assertEquals(1, LadderTuning.barrier(new double[] {1, 1, Double.NaN}), 1e-12);
    }
}
