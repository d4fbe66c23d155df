package org.logz.estimate;

/**
 * One iteration of a Resample-Move run (the data of the ARM paper's plots): after adding variable
 * {@code unit}, {@code particles} R_n, the ESS of the smoothed weights, {@code gamma = ESS / R_n},
 * whether the set was resampled, the increment {@code log(Z_{n+1}/Z_n)}, and the bytes moved between
 * host and backend during the iteration.
 */
public record SequentialTracePoint(int unit, int particles, double ess, double gamma, boolean resampled,
                                   double logZIncrement, long transferBytes) {
}
