package org.logz.model.rbm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;

/**
 * The ascents behind the model base rate and the visited-states bound skip a unit whose gain's upper bound (second
 * derivative of softplus at most 1/4) falls short: what they return must still be local maxima of the exact
 * {@code log f(h)}, and every bound at most the exact log Z (all 2^12 hidden configurations summed here).
 */
class HiddenModesTest {
    private static final int VISIBLE = 40;
    private static final int HIDDEN = 12;

    /** {@code log f(h) = bᵀh + Σ_i softplus(a_i + W_i:·h)} with log1p, not the ascent's arithmetic. */
    private static double logF(Rbm rbm, float[] h) {
        float[] w = rbm.weights();
        double s = 0;
        for (int j = 0; j < HIDDEN; j++) {
            s += rbm.hiddenBias()[j] * (double) h[j];
        }
        for (int i = 0; i < VISIBLE; i++) {
            double field = rbm.visibleBias()[i];
            for (int j = 0; j < HIDDEN; j++) {
                field += (double) w[i * HIDDEN + j] * h[j];
            }
            s += LogSpace.softplus(field);
        }
        return s;
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.3, 1.0, 3.0})
    void searchReturnsLocalMaximaAndBoundsStayBelowLogZ(double scale) {
        Rbm rbm = RandomRbm.create(VISIBLE, HIDDEN, scale, 11);
        List<HiddenModes.Mode> modes = HiddenModes.search(rbm, 24, 5);
        assertFalse(modes.isEmpty());
        for (HiddenModes.Mode m : modes) {
            float[] h = m.h();
            double at = logF(rbm, h);
            assertEquals(at, m.logF(), 1e-9, "the mode's log f");
            for (int j = 0; j < HIDDEN; j++) {
                h[j] = 1f - h[j];
                double flipped = logF(rbm, h);
                h[j] = 1f - h[j];
                assertTrue(flipped <= at + 1e-8, "flipping unit " + j + " of a mode raises log f by " + (flipped - at)
                        + " (scale " + scale + ")");
            }
        }
        double[] all = new double[1 << HIDDEN];
        float[] h = new float[HIDDEN];
        for (int c = 0; c < all.length; c++) {
            for (int j = 0; j < HIDDEN; j++) {
                h[j] = (c >> j) & 1;
            }
            all[c] = logF(rbm, h);
        }
        double logZ = LogSpace.logSumExp(all, all.length);
        assertTrue(modes.get(0).logF() <= logZ, modes.get(0).logF() + " > log Z " + logZ);
        float[] states = new float[30 * VISIBLE];
        for (int k = 0; k < states.length; k++) {
            states[k] = (k * 7919 % 13) < 4 ? 1f : 0f;
        }
        double bound = HiddenModes.lowerBound(rbm, states, 30, 8);
        assertTrue(bound <= logZ + 1e-9, "the visited-states bound " + bound + " exceeds log Z " + logZ);
    }
}
