package org.logz.model.rbm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;

class RbmEnumerationTest {
    /** log Z by summing f(x, h) over every joint state, the definition. */
    private static double bruteForce(Rbm rbm) {
        int n = rbm.visible();
        int h = rbm.hidden();
        double[] terms = new double[1 << (n + h)];
        for (int s = 0; s < terms.length; s++) {
            double e = 0;
            for (int i = 0; i < n; i++) {
                if ((s >>> i & 1) == 0) {
                    continue;
                }
                e += rbm.visibleBias()[i];
                for (int j = 0; j < h; j++) {
                    if ((s >>> (n + j) & 1) != 0) {
                        e += rbm.weight(i, j);
                    }
                }
            }
            for (int j = 0; j < h; j++) {
                if ((s >>> (n + j) & 1) != 0) {
                    e += rbm.hiddenBias()[j];
                }
            }
            terms[s] = e;
        }
        return LogSpace.logSumExp(terms);
    }

    @Test
    void matchesTheJointSumWhicheverLayerIsEnumerated() {
        for (int[] shape : new int[][] {{3, 5}, {5, 3}, {4, 4}, {1, 7}, {9, 2}}) {
            Rbm rbm = RandomRbm.create(shape[0], shape[1], 2.0, shape[0] * 31 + shape[1]);
            assertEquals(bruteForce(rbm), RbmEnumeration.logZ(rbm), 1e-11, shape[0] + "x" + shape[1]);
        }
    }

    @Test
    void grayCodeChunksAgreeWithTheMarginalSum() {
        // 12 hidden units: 64 chunks of 64 Gray-code states each; compare with Σ_x exp(log f(x)) over 2^12 visibles
        Rbm rbm = RandomRbm.create(12, 14, 0.8, 3);
        double[] terms = new double[1 << 12];
        float[] x = new float[12];
        for (int s = 0; s < terms.length; s++) {
            for (int i = 0; i < 12; i++) {
                x[i] = (s >>> i & 1);
            }
            terms[s] = rbm.logMarginal(x);
        }
        assertEquals(LogSpace.logSumExp(terms), RbmEnumeration.logZ(rbm), 1e-9);
        Rbm transposed = RandomRbm.create(14, 12, 0.8, 3);
        assertTrue(Double.isFinite(RbmEnumeration.logZ(transposed)));
    }

    @Test
    void refusesLayersAboveThirtyUnits() {
        Rbm rbm = RandomRbm.create(31, 32, 0.1, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RbmEnumeration.logZ(rbm));
        assertTrue(e.getMessage().contains("at most 30 units"), e.getMessage());
        assertTrue(e.getMessage().contains("31"), e.getMessage());
    }

    @Test
    void exactSamplesFollowTheModel() {
        // 3 visible: compare the frequency of each of the 8 states with p(x) = exp(log f(x) - log Z)
        for (int[] shape : new int[][] {{3, 5}, {3, 2}}) {
            Rbm rbm = RandomRbm.create(shape[0], shape[1], 1.5, 7);
            double logZ = RbmEnumeration.logZ(rbm);
            int count = 40_000;
            float[] samples = RbmEnumeration.sample(rbm, count, 123);
            int[] freq = new int[8];
            for (int r = 0; r < count; r++) {
                int s = 0;
                for (int i = 0; i < 3; i++) {
                    s |= (samples[r * 3 + i] == 1f ? 1 : 0) << i;
                }
                freq[s]++;
            }
            double chi2 = 0;
            for (int s = 0; s < 8; s++) {
                float[] x = {s & 1, s >>> 1 & 1, s >>> 2 & 1};
                double expected = count * Math.exp(rbm.logMarginal(x) - logZ);
                chi2 += (freq[s] - expected) * (freq[s] - expected) / expected;
            }
            // chi-square with 7 degrees of freedom: P(chi2 > 29.9) ≈ 1e-4
            assertTrue(chi2 < 29.9, "chi2 = " + chi2 + " for " + shape[0] + "x" + shape[1]);
        }
    }
}
