package org.logz.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.logz.backend.WeightSummary;
import org.logz.base.EstimationException;
import org.logz.schedule.Schedule;

/** What a forward and reverse run's own numbers say against BAR: weights on few chains, directions that disagree. */
class BidirectionalWarningsTest {
    private static final Schedule SCHEDULE = Schedule.linear(10);
    private static final long SEED = 7;

    /** A run of {@code n} chains whose log weights are normal around {@code mean} with spread {@code sd}. */
    private static AnnealingResult run(Method method, double mean, double sd, int n, long draws) {
        Random random = new Random(draws);
        double[] logW = new double[n];
        for (int i = 0; i < n; i++) {
            logW[i] = mean + sd * random.nextGaussian();
        }
        return run(method, logW);
    }

    private static AnnealingResult run(Method method, double[] logW) {
        int n = logW.length;
        WeightSummary s = WeightSummary.of(logW);
        double logZ = method == Method.AIS ? s.logMean() : -s.logMean();
        return new AnnealingResult(method, "test", "test path", "linear", logZ, s.logMeanStdErr(), s.ess(), 0, n, 10, 10L * n,
                SEED, 1, logW, List.of(), method == Method.AIS ? "base" : "exact", 0, OptionalDouble.empty(),
                Optional.empty());
    }

    private static BidirectionalResult bar(AnnealingResult forward, AnnealingResult reverse) {
        return estimate(forward, reverse, Method.BAR);
    }

    private static BidirectionalResult estimate(AnnealingResult forward, AnnealingResult reverse, Method headline) {
        return new BidirectionalAnnealing(new BidirectionalAnnealing.Settings(forward.chains(), reverse.chains(), SCHEDULE,
                20, SEED, headline)).estimate(forward, reverse);
    }

    private static List<String> codes(BidirectionalResult r) {
        return r.warnings().stream().map(Warning::code).toList();
    }

    @Test
    void barWarnsOfLowEssOnlyWhereBothDirectionsRestOnFewChains() {
        // Gaussian work obeying Crooks' theorem with log(Z1/Z0) = 2: forward log w ~ N(2 - s²/2, s²), reverse N(-2 - s²/2, s²)
        double wide = 3;
        double narrow = 0.3;
        BidirectionalResult both = bar(run(Method.AIS, 2 - wide * wide / 2, wide, 1000, 7),
                run(Method.RAISE, -2 - wide * wide / 2, wide, 1000, 8));
        assertTrue(codes(both).contains("low-ess"), both.warnings().toString());
        BidirectionalResult one = bar(run(Method.AIS, 2 - wide * wide / 2, wide, 1000, 7),
                run(Method.RAISE, -2 - narrow * narrow / 2, narrow, 1000, 8));
        assertTrue(!codes(one).contains("low-ess"), "the reverse weights carry the overlap: " + one.warnings());
        BidirectionalResult calm = bar(run(Method.AIS, 2 - narrow * narrow / 2, narrow, 1000, 7),
                run(Method.RAISE, -2 - narrow * narrow / 2, narrow, 1000, 8));
        assertEquals(List.of(), codes(calm));
        assertEquals(2, calm.logZ(), 0.05);
    }

    @Test
    void directionsThatDisagreeBeyondTheirErrorsAreWarned() {
        // forward log weights 0.3 nat low, reverse 0.3 high: AIS and RAISE differ by about 0.5 with errors of 0.01
        BidirectionalResult lag = bar(run(Method.AIS, 1.7, 0.3, 1000, 7), run(Method.RAISE, -2.3, 0.3, 1000, 8));
        assertTrue(codes(lag).contains("estimators-disagree"), lag.warnings().toString());
        assertTrue(lag.warnings().stream().anyMatch(w -> w.message().contains("forward and reverse annealing disagree")),
                lag.warnings().toString());
    }

    @Test
    void workThatDoesNotOverlapFailsBarAndTheHistogramButNotAnotherHeadline() {
        // forward log w around -10, reverse log w around -10 too: -wF ≤ about -6 and wR ≥ about 6 never meet
        AnnealingResult forward = run(Method.AIS, -10, 0.5, 200, 7);
        AnnealingResult reverse = run(Method.RAISE, -10, 0.5, 200, 8);
        BidirectionalResult cumulant = estimate(forward, reverse, Method.CUMULANT);
        assertTrue(codes(cumulant).contains("estimator-failed"), cumulant.warnings().toString());
        assertTrue(cumulant.failures().get(0).message().contains("bar and histogram"), cumulant.failures().toString());
        assertTrue(!cumulant.has(Method.BAR) && !cumulant.has(Method.HISTOGRAM) && cumulant.has(Method.CUMULANT));
        assertEquals(0, cumulant.logZ(), 0.2, "the combined cumulant estimate sits between the two directions");
        for (Method needsOverlap : List.of(Method.BAR, Method.HISTOGRAM)) {
            assertThrows(EstimationException.class, () -> estimate(forward, reverse, needsOverlap), needsOverlap.toString());
        }
    }

    /**
     * The hostile review's gpdh_raise JSON: cumulant-forward 7.75 beside bounds [-46.5, -34.3]. Forward log weights half
     * at -20 and half at 0 make the forward cumulant estimate (mean + variance/2) about 40, far above the upper bound;
     * the headline BAR is fine, the secondary estimate is named.
     */
    @Test
    void secondaryEstimatesOutsideTheBoundsAreNamed() {
        double[] bimodal = new double[400];
        for (int i = 0; i < bimodal.length; i++) {
            bimodal[i] = i % 2 == 0 ? -20 : 0;
        }
        BidirectionalResult r = bar(run(Method.AIS, bimodal), run(Method.RAISE, -0.1, 0.3, 400, 8));
        Warning w = r.warnings().stream().filter(x -> x.code().equals("secondary-outside-bounds")).findFirst()
                .orElseThrow(() -> new AssertionError(r.warnings().toString()));
        assertTrue(w.message().startsWith("cumulant-forward 40.") && w.message().contains("the headline bar"), w.message());
        assertTrue(codes(bar(run(Method.AIS, 2 - 0.045, 0.3, 1000, 7), run(Method.RAISE, -2 - 0.045, 0.3, 1000, 8)))
                .isEmpty(), "calm work: every estimate within the bounds");
    }
}
