package org.logz.estimate.smc;

/**
 * One step of an SMC sampler: the inverse temperature reached, the effective sample size of the
 * reweighted particles and the conditional ESS of the step's incremental weights (Zhou, Johansen &amp;
 * Aston 2016), whether the particles were then resampled, the running estimate of log Z, and the
 * weighted mean and variance of {@code d/dβ log f_β} at β after the move (the power-posterior integrand).
 */
public record SmcTracePoint(int step, double beta, double ess, double conditionalEss, boolean resampled, double logZ,
                            double slopeMean, double slopeVariance) {
}
