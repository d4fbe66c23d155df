package org.logz.estimate;

/**
 * One point of an annealing run's trace: after step {@code step} (at inverse temperature
 * {@code beta}), {@code logRatio = log mean(w)} estimates {@code log(Z_β / Z_start)}, with the
 * weights' effective sample size; and the chains' mean energy {@code -d log f_β(x)/dβ} at that β (unweighted, over the
 * states the chains hold after the step's transitions; for a geometric path the energy difference
 * {@code E_1(x) - E_0(x)} of Habeck 2017, Fig. 3B), with its standard error over chains (NaN at the points between the fifty or so that
 * measure it, and at the last step, which moves no chain). The forward and reverse runs'
 * energies at one β part where the chains lag behind the path (hysteresis, {@link Hysteresis}).
 */
public record TracePoint(int step, double beta, double logRatio, double ess, double energy, double energyStdErr) {
}
