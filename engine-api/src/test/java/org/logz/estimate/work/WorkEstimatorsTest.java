package org.logz.estimate.work;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.logz.estimate.PymbarFixtures;
import org.logz.io.NpyArray;
import org.logz.random.Philox;

class WorkEstimatorsTest {
    @ParameterizedTest
    @ValueSource(strings = {"bar-unequal", "bar-equal", "bar-poor-overlap"})
    void barMatchesPymbar(String fixture) {
        Map<String, NpyArray> f = PymbarFixtures.load(fixture);
        Bar.Result r = Bar.solve(f.get("wF").toDoubles(), f.get("wR").toDoubles());
        assertEquals(f.get("deltaF").toDoubles()[0], r.deltaF(), 1e-6, "ΔF");
        assertEquals(f.get("dDeltaF").toDoubles()[0], r.stdErr(), 1e-6, "dΔF");
        assertEquals(-r.deltaF(), WorkEstimators.bar(f.get("wF").toDoubles(), f.get("wR").toDoubles()).logRatio(), 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"bar-unequal", "bar-equal", "bar-poor-overlap"})
    void binlessHistogramCoincidesWithBar(String fixture) {
        Map<String, NpyArray> f = PymbarFixtures.load(fixture);
        double[] wF = f.get("wF").toDoubles();
        double[] wR = f.get("wR").toDoubles();
        WorkHistogram h = WorkHistogram.of(wF, wR);
        assertEquals(-f.get("deltaF").toDoubles()[0], h.logRatio(), 1e-6);
        double total = 0;
        for (double lp : h.logMasses()) {
            total += Math.exp(lp);
        }
        assertEquals(1.0, total, 1e-12, "the density of states is normalized");
    }

    /** Gaussian work with ΔF = 2 and dissipation d: wF ~ N(ΔF + d, 2d), wR ~ N(-ΔF + d, 2d) satisfy Crooks exactly. */
    private static double[][] crooksGaussian(double deltaF, double dissipation, int n, long seed) {
        double[][] w = new double[2][n];
        int[] words = new int[4];
        double sd = Math.sqrt(2 * dissipation);
        for (int i = 0; i < n; i++) {
            Philox.block(seed, i, 0, 0, 88, words);
            double r = Math.sqrt(-2 * Math.log(Philox.toUniformDouble(words[0], words[1])));
            double t = 2 * Math.PI * Philox.toUniformDouble(words[2], words[3]);
            w[0][i] = deltaF + dissipation + sd * r * Math.cos(t);
            w[1][i] = -deltaF + dissipation + sd * r * Math.sin(t);
        }
        return w;
    }

    @Test
    void everyEstimatorRecoversGaussianWorkAndTheBoundsSandwichIt() {
        double[][] w = crooksGaussian(2.0, 1.0, 20_000, 3);
        double truth = -2.0;
        double lower = WorkEstimators.lowerBound(w[0]).logRatio();
        double upper = WorkEstimators.upperBound(w[1]).logRatio();
        assertTrue(lower < truth && truth < upper, lower + " < " + truth + " < " + upper);
        for (WorkEstimate e : new WorkEstimate[] {WorkEstimators.jarzynskiForward(w[0]), WorkEstimators.jarzynskiReverse(w[1]),
                WorkEstimators.bar(w[0], w[1]), WorkEstimators.histogram(w[0], w[1], 0, 50, 1),
                WorkEstimators.cumulant(w[0], w[1]), WorkEstimators.cumulantForward(w[0]), WorkEstimators.cumulantReverse(w[1])}) {
            // cumulant estimators are exact for Gaussian work; the others within a few standard errors
            double tol = e.stdErr().isPresent() ? Math.max(5 * e.stdErr().getAsDouble(), 0.02) : 0.06;
            assertEquals(truth, e.logRatio(), tol, e.method().toString());
        }
        WorkEstimate bar = WorkEstimators.bar(w[0], w[1]);
        WorkEstimate histogram = WorkEstimators.histogram(w[0], w[1], 0, 50, 1);
        assertEquals(bar.stdErr().getAsDouble(), histogram.stdErr().getAsDouble(), 0.5 * bar.stdErr().getAsDouble(),
                "the bootstrap error of the histogram estimator is of the size of BAR's asymptotic one");
    }

    /** The delta-method standard errors of the cumulant estimators match their spread over replicates. */
    @Test
    void cumulantStandardErrorsMatchTheReplicateSpread() {
        int replicates = 400;
        double[][] estimates = new double[3][replicates];
        double[][] errors = new double[3][replicates];
        for (int b = 0; b < replicates; b++) {
            double[][] w = crooksGaussian(2.0, 1.5, 200, 100 + b);
            WorkEstimate[] e = {WorkEstimators.cumulantForward(w[0]), WorkEstimators.cumulantReverse(w[1]),
                    WorkEstimators.cumulant(w[0], w[1])};
            for (int i = 0; i < 3; i++) {
                estimates[i][b] = e[i].logRatio();
                errors[i][b] = e[i].stdErr().getAsDouble();
            }
        }
        for (int i = 0; i < 3; i++) {
            double spread = Math.sqrt(WorkEstimators.variance(estimates[i]));
            double meanError = WorkEstimators.mean(errors[i]);
            assertEquals(spread, meanError, 0.15 * spread, "estimator " + i);
        }
    }

    @Test
    void badWorkIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> WorkEstimators.bar(new double[0], new double[] {1}));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WorkEstimators.bar(new double[] {1, Double.NaN}, new double[] {1}));
        assertTrue(e.getMessage().contains("forward work value 2 is NaN"), e.getMessage());
    }
}
