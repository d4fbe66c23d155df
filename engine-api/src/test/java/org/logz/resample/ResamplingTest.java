package org.logz.resample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.logz.numeric.LogSpace;

class ResamplingTest {
    private static final double[] LOG_W = logs(0.30, 0.01, 0.17, 0.0, 0.22, 0.05, 0.125, 0.005, 0.09, 0.03);

    private static double[] logs(double... w) {
        return Arrays.stream(w).map(Math::log).toArray();
    }

    private static int[] counts(int[] ancestors, int particles) {
        int[] c = new int[particles];
        for (int a : ancestors) {
            c[a]++;
        }
        return c;
    }

    /**
     * E[N_r] = M w̃_r for every scheme, checked over 4000 independent draws (different steps). The
     * bound is 4.5 standard errors of the mean count under multinomial sampling, whose variance
     * M w̃(1-w̃) bounds that of the residual and systematic schemes; with ten particles and three
     * schemes the chance that a correct implementation fails is below 2e-4.
     */
    @Test
    void offspringCountsAreUnbiased() {
        double total = Arrays.stream(LOG_W).map(Math::exp).sum();
        int m = 13;
        int draws = 4000;
        for (ResamplingScheme scheme : ResamplingScheme.values()) {
            double[] mean = new double[LOG_W.length];
            int[] out = new int[m];
            for (int step = 0; step < draws; step++) {
                Resampling.ancestors(scheme, LOG_W, LOG_W.length, m, 42, step, out);
                int[] c = counts(out, LOG_W.length);
                for (int r = 0; r < c.length; r++) {
                    mean[r] += (double) c[r] / draws;
                }
            }
            for (int r = 0; r < LOG_W.length; r++) {
                double w = Math.exp(LOG_W[r]) / total;
                double sd = Math.sqrt(m * w * (1 - w) / draws);
                assertEquals(m * w, mean[r], 4.5 * sd + 1e-12, scheme + " particle " + r);
            }
        }
    }

    @Test
    void residualDeterministicPartIsExact() {
        int[] out = new int[8];
        // shares 8·w = 4, 2, 1.5, 0.5: floors 4, 2, 1, 0 come first and in order, then 1 residual draw
        Resampling.ancestors(ResamplingScheme.RESIDUAL, logs(0.5, 0.25, 0.1875, 0.0625), 4, 8, 3, 0, out);
        assertArrayEquals(new int[] {0, 0, 0, 0, 1, 1, 2}, Arrays.copyOf(out, 7));
        assertTrue(out[7] == 2 || out[7] == 3, "the residual draw picks a particle with a residual share");
        // integer shares: no random part at all
        int[] exact = new int[4];
        for (int step = 0; step < 20; step++) {
            Resampling.ancestors(ResamplingScheme.RESIDUAL, logs(0.5, 0.25, 0.25), 3, 4, 9, step, exact);
            assertArrayEquals(new int[] {0, 0, 1, 2}, exact);
        }
    }

    @Test
    void systematicCountsAreFloorOrCeiling() {
        double total = Arrays.stream(LOG_W).map(Math::exp).sum();
        int m = 37;
        int[] out = new int[m];
        for (int step = 0; step < 200; step++) {
            Resampling.ancestors(ResamplingScheme.SYSTEMATIC, LOG_W, LOG_W.length, m, 5, step, out);
            int[] c = counts(out, LOG_W.length);
            for (int r = 0; r < c.length; r++) {
                double share = m * Math.exp(LOG_W[r]) / total;
                assertTrue(c[r] == Math.floor(share) || c[r] == Math.ceil(share), "particle " + r + " got " + c[r]);
            }
        }
    }

    @Test
    void edgeCases() {
        double ninf = Double.NEGATIVE_INFINITY;
        for (ResamplingScheme scheme : ResamplingScheme.values()) {
            int[] out = new int[6];
            Resampling.ancestors(scheme, new double[] {ninf, ninf, 3.0, ninf}, 4, 6, 1, 0, out);
            assertArrayEquals(new int[] {2, 2, 2, 2, 2, 2}, out, scheme + ": one particle holds all weight");
            int[] one = {-1};
            Resampling.ancestors(scheme, new double[] {-5.0}, 1, 1, 1, 0, one);
            assertEquals(0, one[0], scheme + ": R = 1");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Resampling.ancestors(scheme, new double[] {ninf, ninf}, 2, 2, 1, 0, new int[2]));
            assertTrue(e.getMessage().contains("all 2 weights are zero"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class,
                    () -> Resampling.ancestors(scheme, new double[] {0, Double.NaN}, 2, 2, 1, 0, new int[2]));
            assertTrue(e.getMessage().contains("log weight 1 is NaN"), e.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> Resampling.ancestors(scheme, new double[] {Double.POSITIVE_INFINITY, 0}, 2, 2, 1, 0, new int[2]));
            assertThrows(IllegalArgumentException.class,
                    () -> Resampling.ancestors(scheme, new double[] {0}, 1, 0, 1, 0, new int[0]));
        }
    }

    @Test
    void extremeLogWeightsDoNotOverflow() {
        int[] out = new int[4];
        Resampling.ancestors(ResamplingScheme.MULTINOMIAL, new double[] {1e6, 1e6 - 800}, 2, 4, 1, 0, out);
        assertArrayEquals(new int[] {0, 0, 0, 0}, out);
    }

    @Test
    void chunkedCumulativeSumsMatchPlainSums() {
        int count = 3 * Resampling.CHUNK + 17;
        double[] e = new double[count];
        for (int i = 0; i < count; i++) {
            e[i] = 1.0 + Math.sin(i);
        }
        double[] cdf = new double[count];
        double total = Resampling.cumulative(e, count, cdf);
        double plain = 0;
        for (int i = 0; i < count; i++) {
            plain += e[i];
            assertEquals(plain, cdf[i], 1e-12 * plain);
        }
        assertEquals(plain, total, 1e-12 * plain);
        for (int i = 1; i < count; i++) {
            assertTrue(cdf[i] >= cdf[i - 1]);
        }
    }

    @Test
    void splitKeepsEachParticlesMassAcrossItsCopies() {
        double[] logW = logs(0.6, 0.3, 0.05, 0.05);
        double[] carried = {0.1, -0.2, 0.3, -0.4};
        int[] idx = new int[Resampling.splitCapacity(4, 4)];
        double[] out = new double[idx.length];
        int copies = Resampling.split(logW, 4, 4, carried, idx, out);
        // floors of 4·w: 2, 1, 0, 0 -> at least one copy each: 2, 1, 1, 1
        assertEquals(5, copies);
        assertArrayEquals(new int[] {0, 0, 1, 2, 3}, Arrays.copyOf(idx, 5));
        assertEquals(0.1 - Math.log(2), out[0], 1e-15);
        assertEquals(LogSpace.logSumExp(carried), LogSpace.logSumExp(Arrays.copyOf(out, 5)), 1e-12);
    }

    @Test
    void randomIndicesStayInRangeAndCoverIt() {
        int[] out = new int[5000];
        Resampling.randomIndices(7, out.length, 3, 1, out);
        int[] c = new int[7];
        for (int v : out) {
            c[v]++;
        }
        for (int v : c) {
            assertTrue(v > 600 && v < 830, Arrays.toString(c));
        }
        assertThrows(IllegalArgumentException.class, () -> Resampling.randomIndices(0, 1, 1, 1, new int[1]));
    }
}
