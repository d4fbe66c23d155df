package org.logz.estimate.work;

import org.logz.backend.WeightSummary;
import org.logz.estimate.Method;
import org.logz.memory.Footprint;
import org.logz.memory.HostMemory;
import org.logz.numeric.LogSpace;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * Estimators of {@code log(Z_1/Z_0)} from forward and reverse nonequilibrium work values (Habeck
 * 2017, §3 and §5), in pymbar's convention (see {@link Bar}): forward work {@code wF = -log w} of
 * annealing from 0 to 1, reverse work {@code wR = -log w} of annealing from 1 to 0.
 */
public final class WorkEstimators {
    private WorkEstimators() {
    }

    /** Jarzynski equality forward (AIS): {@code log mean exp(-wF)}, delta-method standard error. */
    public static WorkEstimate jarzynskiForward(double[] wF) {
        Bar.requireWork("forward", wF);
        WeightSummary s = summary(negated(wF));
        return WorkEstimate.of(Method.JARZYNSKI_FORWARD, s.logMean(), s.logMeanStdErr());
    }

    /** Jarzynski equality reverse (reverse AIS): {@code -log mean exp(-wR)}. */
    public static WorkEstimate jarzynskiReverse(double[] wR) {
        Bar.requireWork("reverse", wR);
        WeightSummary s = summary(negated(wR));
        return WorkEstimate.of(Method.JARZYNSKI_REVERSE, -s.logMean(), s.logMeanStdErr());
    }

    /** Lower bound of Habeck eq. 7: {@code ⟨log w⟩_f = -mean(wF)}. */
    public static WorkEstimate lowerBound(double[] wF) {
        Bar.requireWork("forward", wF);
        return WorkEstimate.of(Method.LOWER_BOUND, -mean(wF), Math.sqrt(variance(wF) / wF.length));
    }

    /** Upper bound of Habeck eq. 7: {@code -⟨W⟩_r = mean(wR)}. */
    public static WorkEstimate upperBound(double[] wR) {
        Bar.requireWork("reverse", wR);
        return WorkEstimate.of(Method.UPPER_BOUND, mean(wR), Math.sqrt(variance(wR) / wR.length));
    }

    /**
     * Hummer's cumulant estimator from forward work (eq. 12): {@code -mean(wF) + var(wF)/2}. Its error
     * combines the delta method's sampling error with the truncation error of the expansion, estimated
     * by the first omitted term, {@code κ3/6} ({@link #truncationError}; exact only for Gaussian work; on Habeck's Gaussian toy
     * at 1000 steps the sampling error alone gave RMS z-scores of 1.8 from the skew of the work).
     */
    public static WorkEstimate cumulantForward(double[] wF) {
        Bar.requireWork("forward", wF);
        return WorkEstimate.of(Method.CUMULANT_FORWARD, -mean(wF) + variance(wF) / 2,
                Math.hypot(Math.sqrt(momentVariance(wF, -1, 0.5)), truncationError(wF)));
    }

    /** The reverse cumulant estimator (eq. 12), {@code mean(wR) - var(wR)/2}, with the error of {@link #cumulantForward}. */
    public static WorkEstimate cumulantReverse(double[] wR) {
        Bar.requireWork("reverse", wR);
        return WorkEstimate.of(Method.CUMULANT_REVERSE, mean(wR) - variance(wR) / 2,
                Math.hypot(Math.sqrt(momentVariance(wR, 1, -0.5)), truncationError(wR)));
    }

    /**
     * The truncation error of a cumulant expansion cut after the variance, {@code |κ3|/6}, from the
     * sample's third central moment with its own sampling noise taken out: {@code κ3²} is shrunk by the
     * delta-method variance of the sample κ3, {@code (μ6 - μ3² - 6μ4μ2 + 9μ2³)/n}, so Gaussian work (κ3 = 0)
     * adds nothing on average instead of the noise of its sample skew.
     */
    static double truncationError(double[] v) {
        int n = v.length;
        double m = mean(v);
        double sd = Math.sqrt(variance(v));
        if (!(sd > 0)) {
            return 0;
        }
        // standardized moments, so that work near the 1e75 limit does not overflow in its sixth power
        double g3 = 0;
        double g4 = 0;
        double g6 = 0;
        for (double x : v) {
            double z = (x - m) / sd;
            double z2 = z * z;
            g3 += z2 * z / n;
            g4 += z2 * z2 / n;
            g6 += z2 * z2 * z2 / n;
        }
        double noise = (g6 - g3 * g3 - 6 * g4 + 9) / n;
        return sd * sd * sd * Math.sqrt(Math.max(0, g3 * g3 - noise)) / 6;
    }

    /**
     * The combined cumulant estimator (eq. 13), {@code -(mean(wF) - mean(wR))/2 + (var(wF) - var(wR))/12}.
     * Variances are sample variances (n - 1); the standard error is the delta method's.
     */
    public static WorkEstimate cumulant(double[] wF, double[] wR) {
        Bar.requireWork("forward", wF);
        Bar.requireWork("reverse", wR);
        return WorkEstimate.of(Method.CUMULANT, -(mean(wF) - mean(wR)) / 2 + (variance(wF) - variance(wR)) / 12,
                Math.sqrt(momentVariance(wF, -0.5, 1.0 / 12) + momentVariance(wR, 0.5, -1.0 / 12)));
    }

    /**
     * Delta-method variance of {@code a·mean(v) + b·var(v)}: {@code (a²σ² + b²(μ4 - σ⁴) + 2ab μ3)/n}, with
     * the central moments μ3, μ4 and σ² of the sample (Var of the sample variance is (μ4 - σ⁴)/n and its
     * covariance with the mean μ3/n, to first order).
     */
    static double momentVariance(double[] v, double a, double b) {
        int n = v.length;
        double m = mean(v);
        double m2 = 0;
        double m3 = 0;
        double m4 = 0;
        for (double x : v) {
            double d = x - m;
            m2 += d * d / n;
            m3 += d * d * d / n;
            m4 += d * d * d * d / n;
        }
        return Math.max(0, (a * a * m2 + b * b * (m4 - m2 * m2) + 2 * a * b * m3) / n);
    }

    /** Bennett's acceptance ratio (eq. 14) with its asymptotic standard error. */
    public static WorkEstimate bar(double[] wF, double[] wR) {
        Bar.Result r = Bar.solve(wF, wR);
        return WorkEstimate.of(Method.BAR, r.logRatio(), r.stdErr());
    }

    /**
     * The histogram (density-of-states) estimator of §5.3 on bins of {@code binWidth} (0: one per work value) with a
     * bootstrap standard error over {@code bootstraps} resamples of both work sets (Philox keyed by {@code seed}).
     */
    public static WorkEstimate histogram(double[] wF, double[] wR, double binWidth, int bootstraps, long seed) {
        double estimate = WorkHistogram.binned(wF, wR, binWidth).logRatio();
        if (bootstraps < 2) {
            return WorkEstimate.of(Method.HISTOGRAM, estimate);
        }
        HostMemory.requireHeap(Footprint.times(bootstraps, 8) + Footprint.times((long) wF.length + wR.length, 40),
                bootstraps + " bootstrap resamples of the histogram estimator");
        double[] values = new double[bootstraps];
        int[] words = new int[4];
        double[] f = new double[wF.length];
        double[] r = new double[wR.length];
        for (int b = 0; b < bootstraps; b++) {
            for (int i = 0; i < f.length; i++) {
                Philox.block(seed, i, b, 0, StreamTag.BOOTSTRAP, words);
                f[i] = wF[(int) ((words[0] & 0xFFFFFFFFL) % f.length)];
            }
            for (int i = 0; i < r.length; i++) {
                Philox.block(seed, i, b, 1, StreamTag.BOOTSTRAP, words);
                r[i] = wR[(int) ((words[0] & 0xFFFFFFFFL) % r.length)];
            }
            values[b] = WorkHistogram.solve(f, r, binWidth).logRatio();
        }
        return WorkEstimate.of(Method.HISTOGRAM, estimate, Math.sqrt(variance(values)));
    }

    static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    /** Sample variance (n - 1); zero for a single value. */
    static double variance(double[] v) {
        if (v.length < 2) {
            return 0;
        }
        double m = mean(v);
        double s = 0;
        for (double x : v) {
            s += (x - m) * (x - m);
        }
        return s / (v.length - 1);
    }

    private static double[] negated(double[] v) {
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = -v[i];
        }
        return out;
    }

    private static WeightSummary summary(double[] logW) {
        double[] twice = new double[logW.length];
        for (int i = 0; i < logW.length; i++) {
            twice[i] = 2 * logW[i];
        }
        return new WeightSummary(logW.length, LogSpace.logSumExp(logW), LogSpace.logSumExp(twice));
    }
}
