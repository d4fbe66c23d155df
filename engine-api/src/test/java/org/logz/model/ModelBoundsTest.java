package org.logz.model;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.logz.model.latent.StochasticVolatility;
import org.logz.model.toy.GaussianToy;

class ModelBoundsTest {
    private static void assertRefused(Runnable r, String... fragments) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        for (String fragment : fragments) {
            assertTrue(e.getMessage().contains(fragment), "'" + e.getMessage() + "' lacks '" + fragment + "'");
        }
    }

    /** The bound is 2^14, the largest pre-activation float32 holds to within 0.001. */
    @Test
    void boundIsTwoToTheFourteen() {
        assertEquals(16384.0, Rbm.MAX_PREACTIVATION);
    }

    /** |a_i| + Σ_j |W_ij| above the bound is refused, naming the visible unit and the bound. */
    @Test
    void visiblePreActivationAboveTheBoundIsRefused() {
        assertRefused(() -> new Rbm(1, 1, new float[] {8192}, new float[] {8193}, new float[1]),
                "visible unit 0's pre-activation can reach 1.64e+04", "beyond the 16384");
        assertRefused(() -> new Rbm(1, 1, new float[] {-8192}, new float[] {-8193}, new float[1]), "visible unit 0");
    }

    /** |b_j| + Σ_i |W_ij| above the bound is refused, naming the hidden unit, though each visible sum is fine. */
    @Test
    void hiddenPreActivationAboveTheBoundIsRefused() {
        assertRefused(() -> new Rbm(2, 2, new float[] {0, 9000, 0, -9000}, new float[2], new float[] {0, 0}),
                "hidden unit 1's pre-activation can reach 1.80e+04", "beyond the 16384");
    }

    /** Many small weights add up: twenty thousand weights of one exceed the bound. */
    @Test
    void manySmallWeightsAddUp() {
        float[] w = new float[20_000];
        Arrays.fill(w, 1f);
        assertRefused(() -> new Rbm(1, 20_000, w, new float[1], new float[20_000]), "visible unit 0");
        assertRefused(() -> new Rbm(20_000, 1, w, new float[20_000], new float[1]), "hidden unit 0");
    }

    /** A finite but huge value (Float.MAX_VALUE) is refused by the bound, not missed. */
    @Test
    void hugeFiniteParameterIsRefused() {
        assertRefused(() -> new Rbm(1, 1, new float[] {Float.MAX_VALUE}, new float[1], new float[1]), "16384");
        assertRefused(() -> new Rbm(1, 1, new float[1], new float[] {-Float.MAX_VALUE}, new float[1]), "16384");
    }

    /** Pre-activations exactly at and just below the bound are accepted. */
    @Test
    void preActivationAtTheBoundIsAccepted() {
        assertDoesNotThrow(() -> new Rbm(1, 1, new float[] {8192}, new float[] {8192}, new float[] {8192}));
        assertDoesNotThrow(() -> new Rbm(1, 1, new float[] {16383.5f}, new float[] {0.5f}, new float[] {-0.5f}));
    }

    /** NaN and infinite parameters are refused with their array and position. */
    @Test
    void nonFiniteParametersAreRefused() {
        assertRefused(() -> new Rbm(2, 1, new float[2], new float[] {0, Float.NEGATIVE_INFINITY}, new float[1]),
                "a[1] is -Infinity; every parameter must be finite");
        assertRefused(() -> new Rbm(1, 2, new float[] {Float.NaN, 0}, new float[1], new float[2]), "W[0,0] is NaN");
    }

    /** Base-rate log-odds beyond ±2^14 are refused; at the bound they are accepted. */
    @Test
    void baseRateBeyondTheBoundIsRefused() {
        assertRefused(() -> BaseRate.of(new float[] {0, 16385}, "file"), "a0[1] = 16385.0 is beyond ±16384");
        assertRefused(() -> BaseRate.of(new float[] {-16385}, "file"), "a0[0]");
        assertRefused(() -> BaseRate.of(new float[] {Float.POSITIVE_INFINITY}, "file"), "a0[0] is Infinity");
        assertDoesNotThrow(() -> BaseRate.of(new float[] {16384, -16384}, "file"));
    }

    /** Kernel powers outside 1..1000 are refused with the allowed range. */
    @Test
    void gaussianToyPowerOutOfRangeIsRefused() {
        assertRefused(() -> new GaussianToy(20, 10, 0.9, 0, 1, 0.995, 0), "from 1 to 1000, got 0");
        assertRefused(() -> new GaussianToy(20, 10, 0.9, 0, 1, 0.995, 1001), "from 1 to 1000, got 1001");
        assertRefused(() -> new GaussianToy(20, 10, 0.9, 0, 1, 0.995, -3), "got -3");
        assertDoesNotThrow(() -> new GaussianToy(20, 10, 0.9, 0, 1, 0.995, GaussianToy.MAX_POWER));
        assertDoesNotThrow(() -> new GaussianToy(20, 10, 0.9, 0, 1, 0.995, 1));
    }

    /** Zero, negative and non-finite standard deviations are refused. */
    @Test
    void gaussianToyNonPositiveSigmaIsRefused() {
        assertRefused(() -> new GaussianToy(0, 0, 0.5, 0, 1, 0.5, 1), "σ0, σ1 > 0");
        assertRefused(() -> new GaussianToy(0, 1, 0.5, 0, -1, 0.5, 1), "σ0, σ1 > 0");
        assertRefused(() -> new GaussianToy(0, Double.NaN, 0.5, 0, 1, 0.5, 1), "must be finite");
        assertRefused(() -> new GaussianToy(0, 1, 0.5, 0, Double.POSITIVE_INFINITY, 0.5, 1), "must be finite");
    }

    /** τ must lie in [0, 1). */
    @Test
    void gaussianToyTauOutOfRangeIsRefused() {
        assertRefused(() -> new GaussianToy(0, 1, 1.0, 0, 1, 0.5, 1), "0 ≤ τ < 1");
        assertRefused(() -> new GaussianToy(0, 1, 0.5, 0, 1, -0.1, 1), "0 ≤ τ < 1");
        assertDoesNotThrow(() -> new GaussianToy(0, 1, 0, 0, 1, Math.nextDown(1.0), 1));
    }

    /** Means and scales beyond float32's useful range, or σ too small for the resolution of the means or of the other σ, are refused. */
    @Test
    void gaussianToyScalesAreBounded() {
        assertRefused(() -> new GaussianToy(1e31, 1e30, 0.5, 0, 1e30, 0.5, 1), "within [1e-30, 1.0E30]");
        assertRefused(() -> new GaussianToy(0, 1e-31, 0.5, 0, 1, 0.5, 1), "within [1e-30");
        assertRefused(() -> new GaussianToy(1e6, 1, 0.5, 0, 1, 0.5, 1), "below 2^-10·max(|μ0|, |μ1|, σ0, σ1)");
        assertDoesNotThrow(() -> new GaussianToy(1024, 1, 0.5, 0, 1, 0.5, 1));
        // the hostile review's toy_ce6b84 and toy_45de80: scales 1e29 apart printed log Z -7.4e51 ± 1.0
        assertRefused(() -> new GaussianToy(0, 1e29, 0.5, 0, 1, 0.5, 1), "σ0/σ1 and σ1/σ0 at most 1024");
        assertRefused(() -> new GaussianToy(0, 1, 0.5, 0, 1e-29, 0.5, 1), "below 2^-10");
        assertRefused(() -> new GaussianToy(0, 1, 0.5, 0, 1025, 0.5, 1), "below 2^-10");
        assertDoesNotThrow(() -> new GaussianToy(0, 1, 0.5, 0, 1024, 0.5, 1));
        assertDoesNotThrow(GaussianToy::habeck);
    }

    /**
     * sv03_tiny: returns scaled to about 1e-27 passed the 1e-30 floor and ran with an ETA of 36 h; their log mean
     * square lies 62 prior standard deviations from μ's prior. Raw daily returns (about 0.01) stay accepted.
     */
    @Test
    void stochasticVolatilityReturnsFarFromThePriorAreRefused() {
        double[] tiny = new double[50];
        double[] daily = new double[50];
        for (int t = 0; t < tiny.length; t++) {
            tiny[t] = (t % 2 == 0 ? 1 : -1) * 1e-27 * (1 + t % 5);
            daily[t] = (t % 2 == 0 ? 1 : -1) * 0.01 * (1 + t % 5);
        }
        assertRefused(() -> new StochasticVolatility(tiny, "tiny"), "tiny: the returns' log mean square is -121.",
                "prior standard deviations from μ's prior N(0, 2²)", "rescale the returns");
        assertDoesNotThrow(() -> new StochasticVolatility(daily, "daily"));
    }
}
