package org.logz.estimate;

/**
 * One point of an annealing run's trace: after step {@code step} (at inverse temperature
 * {@code beta}), {@code logRatio = log mean(w)} estimates {@code log(Z_β / Z_start)}, with the
 * weights' effective sample size.
 */
public record TracePoint(int step, double beta, double logRatio, double ess) {
}
