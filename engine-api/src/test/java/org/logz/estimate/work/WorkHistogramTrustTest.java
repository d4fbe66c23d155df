package org.logz.estimate.work;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.logz.base.EstimationException;

class WorkHistogramTrustTest {
    private static final Duration BOUNDED = Duration.ofSeconds(10);

    /** Work beyond MAX_WORK (±1e308) is refused up front with the bound in the message. */
    @Test
    void workBeyondTheLimitIsRefused() {
        double[] huge = {1e308, -1e308};
        IllegalArgumentException e = assertTimeoutPreemptively(BOUNDED,
                () -> assertThrows(IllegalArgumentException.class, () -> WorkHistogram.of(huge, new double[] {0, 1})));
        assertTrue(e.getMessage().contains("at most 1.0E75 in magnitude"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> WorkHistogram.of(new double[] {0, 1}, new double[] {0, Double.NEGATIVE_INFINITY}));
    }

    /** Work of magnitude 1e29 ends in bounded time with a clear refusal or a finite estimate inside the data. */
    @Test
    void workNearTenToTheTwentyNineEndsCleanly() {
        Optional<WorkHistogram> h = assertTimeoutPreemptively(BOUNDED,
                () -> solveOrRefuse(new double[] {1e29, 2e29}, new double[] {-1.5e29, -1.2e29}));
        h.ifPresent(histogram -> {
            double deltaF = -histogram.logRatio();
            assertTrue(deltaF >= 1e29 && deltaF <= 2e29, "ΔF " + deltaF);
            assertNormalized(histogram);
        });
    }

    /** Symmetric work (log(Z_1/Z_0) = 0, BAR exact) gives BAR's 0 or a refusal at every accepted magnitude. */
    @Test
    void hugeSymmetricWorkAgreesWithBarOrIsRefused() {
        for (double scale : new double[] {1e3, 1e10, 1e20, 1e30, 1e50, Bar.MAX_WORK}) {
            double[] w = {scale, -scale, 0, scale / 2};
            Bar.Result bar = Bar.solve(w, w);
            assertEquals(0, bar.deltaF(), 1e-9 * scale, "BAR at scale " + scale);
            Optional<WorkHistogram> h = assertTimeoutPreemptively(BOUNDED, () -> solveOrRefuse(w, w));
            double tolerance = Math.max(1e-6, 1e-12 * scale);
            h.ifPresent(histogram -> assertEquals(bar.logRatio(), histogram.logRatio(), tolerance, "scale " + scale));
        }
    }

    /** Disjoint forward and negated reverse work are refused with a message about overlap. */
    @Test
    void disjointWorkIsRefused() {
        EstimationException e = assertThrows(EstimationException.class,
                () -> WorkHistogram.of(new double[] {10, 11}, new double[] {-1, -2}));
        assertTrue(e.getMessage().contains("do not overlap"), e.getMessage());
    }

    /** A bootstrap resample that misses the few overlapping values does not abort the whole histogram estimate. */
    @Test
    void bootstrapOfBarelyOverlappingWorkKeepsTheEstimate() {
        double[] wF = new double[20];
        Arrays.fill(wF, 5);
        wF[0] = 0.5;
        double[] wR = new double[20];
        Arrays.fill(wR, -1);
        double point = WorkHistogram.of(wF, wR).logRatio();
        WorkEstimate e = assertTimeoutPreemptively(BOUNDED, () -> WorkEstimators.histogram(wF, wR, 0, 50, 1));
        assertEquals(point, e.logRatio(), 0);
    }

    /** The histogram, or empty where it refuses with an {@link EstimationException} (non-convergence included). */
    private static Optional<WorkHistogram> solveOrRefuse(double[] wF, double[] wR) {
        try {
            return Optional.of(WorkHistogram.of(wF, wR));
        } catch (EstimationException refused) {
            assertTrue(refused.getMessage() != null && !refused.getMessage().isBlank());
            return Optional.empty();
        }
    }

    private static void assertNormalized(WorkHistogram h) {
        double total = 0;
        for (double lp : h.logMasses()) {
            total += Math.exp(lp);
        }
        assertEquals(1.0, total, 1e-12);
    }
}
