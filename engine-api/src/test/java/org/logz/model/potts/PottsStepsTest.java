package org.logz.model.potts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The scalar steps against their formulas: a heat-bath draw over a fine grid of uniforms lands on each colour with the
 * conditional probability {@code e^{β J n_x} / Σ_y e^{β J n_y}}, for neighbour patterns around runs of other colours and several β J (huge ones
 * included, where the base weights underflow); a Metropolis update proposes every other colour equally and accepts by
 * {@code min(1, e^{β J Δ})}.
 */
class PottsStepsTest {
    private static final int GRID = 1 << 15;

    @Test
    void heatBathInvertsTheConditional() {
        float[] s = new float[5];
        for (int colours : new int[] {2, 3, 5, 10}) {
            for (double betaJ : new double[] {0, 0.4, 2, 30, 500}) {
                PottsSteps.weights(betaJ, s);
                // neighbours from the palette {0, 1, 2, q - 1}: runs of base colours before, between and after them
                int[] palette = java.util.stream.IntStream.of(0, 1, 2, colours - 1).filter(x -> x < colours).distinct()
                        .toArray();
                int k = palette.length;
                for (int p = 0; p < k * k * k * k; p++) {
                    int a = palette[p % k];
                    int b = palette[p / k % k];
                    int c = palette[p / k / k % k];
                    int d = palette[p / k / k / k];
                    double[] expected = new double[colours];
                    double total = 0;
                    int most = Math.max(Math.max(count(a, a, b, c, d), count(b, a, b, c, d)),
                            Math.max(count(c, a, b, c, d), count(d, a, b, c, d)));
                    for (int x = 0; x < colours; x++) {
                        int n = count(x, a, b, c, d);
                        expected[x] = Math.exp(betaJ * (n - most));
                        total += expected[x];
                    }
                    int[] hits = new int[colours];
                    for (int g = 0; g < GRID; g++) {
                        hits[PottsSteps.heatBath(colours, a, b, c, d, s, (g + 0.5f) / GRID)]++;
                    }
                    for (int x = 0; x < colours; x++) {
                        assertEquals(expected[x] / total, hits[x] / (double) GRID, 2.0 / GRID + 1e-6,
                                "q=" + colours + " βJ=" + betaJ + " neighbours " + a + b + c + d + " colour " + x);
                    }
                }
            }
        }
    }

    private static int count(int x, int a, int b, int c, int d) {
        return (x == a ? 1 : 0) + (x == b ? 1 : 0) + (x == c ? 1 : 0) + (x == d ? 1 : 0);
    }

    @Test
    void heatBathStaysInRangeAtTheUniformsExtremes() {
        float[] s = new float[5];
        PottsSteps.weights(1e4, s);
        float top = ((0xffffffff >>> 8) + 0.5f) * 0x1p-24f;
        for (float u : new float[] {0x1p-25f, top}) {
            int x = PottsSteps.heatBath(10, 9, 9, 3, 9, s, u);
            assertEquals(9, x, "only the majority colour has weight at βJ = 1e4");
        }
        PottsSteps.weights(0.1, s);
        assertEquals(9, PottsSteps.heatBath(10, 0, 1, 2, 3, s, top));
        assertEquals(0, PottsSteps.heatBath(10, 0, 1, 2, 3, s, 0x1p-25f));
    }

    @Test
    void metropolisProposesOtherColoursEquallyAndAcceptsByTheRule() {
        float[] s = new float[5];
        double betaJ = 0.7;
        PottsSteps.weights(betaJ, s);
        int colours = 5;
        int current = 1;
        int[] neighbours = {1, 1, 3, 4};
        int[] proposed = new int[colours];
        for (int g = 0; g < GRID; g++) {
            float u = (g + 0.5f) / GRID;
            // v just below 1 accepts only moves that do not lose agreements
            int x = PottsSteps.metropolis(colours, current, neighbours[0], neighbours[1], neighbours[2], neighbours[3], s, u,
                    0.999999f);
            int y = PottsSteps.metropolis(colours, current, neighbours[0], neighbours[1], neighbours[2], neighbours[3], s, u,
                    1e-7f);
            assertEquals(current, x, "every other colour loses at least one agreement");
            assertTrue(y != current, "a tiny v accepts every proposal");
            proposed[y]++;
        }
        for (int c = 0; c < colours; c++) {
            assertEquals(c == current ? 0 : 0.25, proposed[c] / (double) GRID, 1e-4, "proposal of colour " + c);
        }
        // from colour 3 (one agreement) to colour 1 (two; u in [1/2, 3/4)) always; to colour 0 (none; u in [1/4, 1/2))
        // with e^{-βJ}
        assertEquals(1, PottsSteps.metropolis(colours, 3, 1, 1, 3, 4, s, 0.6f, 0.999999f));
        float cut = (float) Math.exp(-betaJ);
        assertEquals(0, PottsSteps.metropolis(colours, 3, 1, 1, 3, 4, s, 0.3f, cut * 0.999f));
        assertEquals(3, PottsSteps.metropolis(colours, 3, 1, 1, 3, 4, s, 0.3f, cut * 1.001f));
    }
}
