package org.logz.model.rbm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;

/** The marginal path's host side: Z at β = 1 is the RBM's, exact draws follow p(h), and what it cannot hold is refused. */
class MarginalRbmTest {
    private static final Rbm RBM = RandomRbm.create(9, 4, 1.5, 31);

    /** {@code log Σ_h exp(−F(h))} by enumerating h. */
    private static double[] logWeights(MarginalRbm model) {
        double[] logP = new double[1 << RBM.hidden()];
        float[] h = new float[RBM.hidden()];
        for (int s = 0; s < logP.length; s++) {
            for (int j = 0; j < h.length; j++) {
                h[j] = (s >>> j & 1) == 1 ? 1f : 0f;
            }
            logP[s] = model.negativeFreeEnergy(h, 0);
        }
        return logP;
    }

    @Test
    void theMarginalSumsToTheRbmsPartitionFunction() {
        MarginalRbm model = new MarginalRbm(RBM);
        assertEquals(RbmEnumeration.logZ(RBM), LogSpace.logSumExp(logWeights(model)), 1e-10);
        assertEquals(4 * Math.log(2), model.logZ0(), 1e-15);
        assertEquals(4, model.dimension());
        assertTrue(model.linearPath() && model.discrete());
    }

    @Test
    void exactDrawsFollowTheMarginal() {
        MarginalRbm model = new MarginalRbm(RBM);
        double[] logP = logWeights(model);
        double norm = LogSpace.logSumExp(logP);
        int count = 40_000;
        float[] h = model.exactTargetSamples(count, 5).orElseThrow();
        int[] freq = new int[logP.length];
        for (int r = 0; r < count; r++) {
            int s = 0;
            for (int j = 0; j < 4; j++) {
                s |= (h[r * 4 + j] == 1f ? 1 : 0) << j;
            }
            freq[s]++;
        }
        for (int s = 0; s < logP.length; s++) {
            double p = Math.exp(logP[s] - norm);
            assertEquals(p, freq[s] / (double) count, 5 * Math.sqrt(p * (1 - p) / count) + 1e-9, "state " + s);
        }
    }

    @Test
    void preactivationsBeyondTheExponentsRangeAreRefused() {
        float[] w = new float[2 * 2];
        w[0] = 400;
        w[1] = 300;
        Rbm large = new Rbm(2, 2, w, new float[2], new float[2]);
        UserException e = assertThrows(UserException.class, () -> new MarginalRbm(large));
        assertTrue(e.getMessage().contains("use --path full"), e.getMessage());
    }
}
