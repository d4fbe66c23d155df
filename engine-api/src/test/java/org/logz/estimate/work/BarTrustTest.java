package org.logz.estimate.work;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.logz.base.EstimationException;

class BarTrustTest {
    private static final Duration BOUNDED = Duration.ofSeconds(10);

    /**
     * Work that satisfies Crooks' theorem in this code base's (pymbar's) convention: forward
     * {@code wF ~ N(ΔF + d, 2d)}, reverse {@code wR ~ N(-ΔF + d, 2d)}, so {@code -wR ~ N(ΔF - d, 2d)}.
     */
    private static double[][] crooksGaussian(double deltaF, double dissipation, int n, long seed) {
        Random random = new Random(seed);
        double sd = Math.sqrt(2 * dissipation);
        double[][] w = new double[2][n];
        for (int i = 0; i < n; i++) {
            w[0][i] = deltaF + dissipation + sd * random.nextGaussian();
            w[1][i] = -deltaF + dissipation + sd * random.nextGaussian();
        }
        return w;
    }

    /**
     * The large-sample two-state MBAR overlap for equal sample sizes, {@code ∫ p0 p1 / (p0 + p1)}, which
     * for Crooks-Gaussian work is {@code E[1 / (1 + e^{d + sqrt(2d) Z})]}, Z standard normal (quadrature).
     */
    private static double analyticOverlap(double dissipation) {
        double sd = Math.sqrt(2 * dissipation);
        double h = 1e-3;
        double total = 0;
        for (double z = -12; z < 12; z += h) {
            double fermi = 1 / (1 + Math.exp(dissipation + sd * z));
            total += fermi * Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI) * h;
        }
        return total;
    }

    /** BAR recovers ΔF of Crooks-Gaussian work within a few standard errors and reports the analytic overlap. */
    @Test
    void recoversKnownDeltaFAndOverlap() {
        double deltaF = 3.0;
        double[][] w = crooksGaussian(deltaF, 1.0, 4000, 17);
        Bar.Result r = Bar.solve(w[0], w[1]);
        assertTrue(r.stdErr() > 0 && r.stdErr() < 0.05, "stdErr " + r.stdErr());
        assertEquals(deltaF, r.deltaF(), 4 * r.stdErr(), "ΔF");
        assertEquals(-r.deltaF(), r.logRatio(), 0);
        assertEquals(0.325, analyticOverlap(1.0), 1e-3, "the quadrature itself");
        assertEquals(analyticOverlap(1.0), r.overlap(), 0.01, "overlap");
        assertTrue(r.overlap() > Bar.MIN_OVERLAP);
    }

    /** Nearly reversible work (dissipation 0.005) overlaps by nearly the largest possible 1/2. */
    @Test
    void nearlyReversibleWorkOverlapsByNearlyOneHalf() {
        double[][] w = crooksGaussian(0.0, 0.005, 2000, 5);
        Bar.Result r = Bar.solve(w[0], w[1]);
        assertEquals(analyticOverlap(0.005), r.overlap(), 0.01);
        assertTrue(r.overlap() > 0.45, "overlap " + r.overlap());
    }

    /** Poorly overlapping work (large dissipation) still solves but reports overlap below MIN_OVERLAP. */
    @Test
    void poorOverlapIsReportedBelowTheMinimum() {
        double[][] w = crooksGaussian(3.0, 10.0, 2000, 1);
        Bar.Result r = Bar.solve(w[0], w[1]);
        assertEquals(3.0, r.deltaF(), 5 * r.stdErr(), "ΔF");
        assertTrue(r.overlap() > 0 && r.overlap() < Bar.MIN_OVERLAP, "overlap " + r.overlap());
        assertEquals(analyticOverlap(10.0), r.overlap(), 0.005);
    }

    /** Forward and negated reverse work in disjoint ranges are refused with a message about overlap. */
    @Test
    void disjointWorkIsRefused() {
        double[] wF = {5, 6, 7};
        double[] wR = {-1, -2};
        EstimationException e = assertThrows(EstimationException.class, () -> Bar.solve(wF, wR));
        assertTrue(e.getMessage().contains("do not overlap"), e.getMessage());
        assertTrue(e.getMessage().contains("[5.00000, 7.00000]") && e.getMessage().contains("[1.00000, 2.00000]"),
                e.getMessage());
        assertThrows(EstimationException.class, () -> WorkHistogram.of(wF, wR));
    }

    /** Ranges that only touch at one point count as overlapping. */
    @Test
    void touchingRangesAreAccepted() {
        assertDoesNotThrow(() -> Bar.requireOverlap(new double[] {2, 3}, new double[] {-1, -2}));
    }

    /** Work of magnitude 1e29 solves in bounded time to a finite ΔF inside the data, flagged by zero overlap. */
    @Test
    void workNearTenToTheTwentyNineSolves() {
        double[] wF = {1e29, 2e29};
        double[] wR = {-1.5e29, -1.2e29};
        Bar.Result r = assertTimeoutPreemptively(BOUNDED, () -> Bar.solve(wF, wR));
        assertTrue(r.deltaF() >= 1e29 && r.deltaF() <= 2e29, "ΔF " + r.deltaF());
        assertTrue(Double.isFinite(r.stdErr()), "stdErr " + r.stdErr());
        assertTrue(r.overlap() >= 0 && r.overlap() < Bar.MIN_OVERLAP, "overlap " + r.overlap());
    }

    /** Identical huge work values (a bracket narrower than an ulp) solve in bounded time. */
    @Test
    void identicalHugeWorkSolves() {
        Bar.Result r = assertTimeoutPreemptively(BOUNDED,
                () -> Bar.solve(new double[] {1e29, 1e29}, new double[] {-1e29, -1e29}));
        assertEquals(1e29, r.deltaF(), 1e29 * 1e-12);
    }

    /** Work at ±MAX_WORK is accepted and gives finite numbers in bounded time. */
    @Test
    void workAtTheLimitSolves() {
        double[] w = {Bar.MAX_WORK, -Bar.MAX_WORK, 0};
        Bar.Result r = assertTimeoutPreemptively(BOUNDED, () -> Bar.solve(w, w));
        assertTrue(Double.isFinite(r.deltaF()) && Double.isFinite(r.stdErr()), r.toString());
        assertTrue(Double.isFinite(r.overlap()), r.toString());
    }

    /** Work beyond MAX_WORK (1e308, the next double above 1e75) is refused with the bound in the message. */
    @Test
    void workBeyondTheLimitIsRefused() {
        for (double big : new double[] {1e308, -1e308, Double.MAX_VALUE, Math.nextUp(Bar.MAX_WORK)}) {
            double[] wF = {0, big};
            IllegalArgumentException e = assertTimeoutPreemptively(BOUNDED,
                    () -> assertThrows(IllegalArgumentException.class, () -> Bar.solve(wF, new double[] {0, 1})));
            assertTrue(e.getMessage().startsWith("forward work value 2 is "), e.getMessage());
            assertTrue(e.getMessage().contains("at most 1.0E75 in magnitude"), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Bar.solve(new double[] {0, 1}, new double[] {-1e308, 0}));
        assertTrue(e.getMessage().startsWith("reverse work value 1 is -1.0E308"), e.getMessage());
    }

    /** Fewer than two work values on a side is refused before solving. */
    @Test
    void tooFewWorkValuesAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Bar.solve(new double[] {1, 2}, new double[] {1}));
        assertTrue(e.getMessage().startsWith("only one reverse work value"), e.getMessage());
    }

    /** Every closed-form work estimator and BAR give finite numbers at ±MAX_WORK (the moment sums do not overflow). */
    @Test
    void everyEstimatorIsFiniteAtTheLimit() {
        double[] w = {Bar.MAX_WORK, -Bar.MAX_WORK, 0, 0.5 * Bar.MAX_WORK};
        for (WorkEstimate e : new WorkEstimate[] {WorkEstimators.jarzynskiForward(w),
                WorkEstimators.jarzynskiReverse(w), WorkEstimators.lowerBound(w), WorkEstimators.upperBound(w),
                WorkEstimators.cumulantForward(w), WorkEstimators.cumulantReverse(w), WorkEstimators.cumulant(w, w),
                WorkEstimators.bar(w, w)}) {
            assertTrue(Double.isFinite(e.logRatio()), e.toString());
            e.stdErr().ifPresent(s -> assertTrue(Double.isFinite(s), e.toString()));
        }
    }

    /**
     * One outlier at the limit among ordinary work (the hostile review's barx_outl and barx_negoutl): a forward work of
     * +1e75 carries no weight, so BAR and the histogram give what they give with it at +1e20; one of -1e75 carries it
     * all, the same as at -1e40. Both once failed: the slope's weights, normalized by a log-sum-exp that rounded at
     * |ΔF| ~ 1e40, summed to 50 and Newton crept.
     */
    @Test
    void oneOutlierAtTheLimitSolves() {
        double[][] w = crooksGaussian(1, 1, 50, 3);
        double[] reference = {1e20, -1e40};
        double[] limit = {Bar.MAX_WORK, -Bar.MAX_WORK};
        for (int i = 0; i < 2; i++) {
            double[] near = w[0].clone();
            double[] far = w[0].clone();
            near[49] = reference[i];
            far[49] = limit[i];
            Bar.Result expected = Bar.solve(near, w[1]);
            Bar.Result r = assertTimeoutPreemptively(BOUNDED, () -> Bar.solve(far, w[1]));
            assertEquals(expected.deltaF(), r.deltaF(), 1e-12, "BAR with an outlier at " + limit[i]);
            assertEquals(expected.stdErr(), r.stdErr(), 1e-12);
            assertEquals(-expected.deltaF(), assertTimeoutPreemptively(BOUNDED, () -> WorkHistogram.of(far, w[1])).logRatio(),
                    1e-12, "histogram with an outlier at " + limit[i]);
        }
    }
}
