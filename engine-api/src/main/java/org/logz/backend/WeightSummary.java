package org.logz.backend;

import org.logz.numeric.LogSpace;

/**
 * The reductions of a log-weight vector that estimators need on the host:
 * {@code logSum = LSE(logW)}, {@code logSumSquares = LSE(2 logW)} and the particle count.
 */
public record WeightSummary(int count, double logSum, double logSumSquares) {
    /** The summary of {@code logW} on the host, in the CPU backend's order of operations (so with its bits). */
    public static WeightSummary of(double[] logW) {
        double[] twice = new double[logW.length];
        for (int i = 0; i < logW.length; i++) {
            twice[i] = 2.0 * logW[i];
        }
        return new WeightSummary(logW.length, LogSpace.logSumExp(logW, logW.length), LogSpace.logSumExp(twice, twice.length));
    }

    /** Effective sample size {@code exp(2 LSE(lw) - LSE(2 lw))}. */
    public double ess() {
        return LogSpace.essFromSums(logSum, logSumSquares);
    }

    /** {@code log(mean(e^logW))}. */
    public double logMean() {
        return logSum - Math.log(count);
    }

    /**
     * Delta-method standard error of {@code log(mean w)}: {@code sqrt((M/ESS - 1)/(M - 1))}, the
     * sample standard deviation of the weights over their mean, divided by {@code sqrt(M)}.
     * Zero for a single particle, where it is undefined, so callers that need it require M ≥ 2.
     */
    public double logMeanStdErr() {
        if (count < 2) {
            return 0.0;
        }
        double ratio = count / ess() - 1.0;
        return Math.sqrt(Math.max(ratio, 0.0) / (count - 1));
    }

    /** True when every weight is zero or a value is not a number. */
    public boolean degenerate() {
        return !Double.isFinite(logSum) || !Double.isFinite(logSumSquares);
    }
}
