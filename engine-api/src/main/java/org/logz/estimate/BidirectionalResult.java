package org.logz.estimate;

import java.util.List;
import java.util.OptionalDouble;

import org.logz.estimate.work.WorkEstimate;

/**
 * Forward and reverse annealing runs and every estimator read from their work values.
 * {@link #method()} names the headline estimator; each {@link WorkEstimate} holds
 * {@code log(Z_1/Z_0)}, and {@link #logZ(String)} adds {@code log Z_0}.
 *
 * @param method    the headline estimator: a name of {@link #estimates()}
 * @param backend   backend name
 * @param path      what was annealed
 * @param logZ0     exact log normalizer of the base
 * @param forward   the forward (AIS) run
 * @param reverse   the reverse (RAISE) run
 * @param estimates lower-bound, upper-bound, jarzynski-forward, jarzynski-reverse, cumulant-forward,
 *                  cumulant-reverse, cumulant, bar and histogram
 * @param seed      the run's Philox key
 */
public record BidirectionalResult(String method, String backend, String path, double logZ0, AnnealingResult forward,
                                  AnnealingResult reverse, List<WorkEstimate> estimates, long seed) implements Estimate {
    public BidirectionalResult {
        estimates = List.copyOf(estimates);
        find(estimates, method);
    }

    private static WorkEstimate find(List<WorkEstimate> estimates, String name) {
        for (WorkEstimate e : estimates) {
            if (e.name().equals(name)) {
                return e;
            }
        }
        throw new IllegalArgumentException("no work estimator named " + name);
    }

    public WorkEstimate estimate(String name) {
        return find(estimates, name);
    }

    /** log Z of the target by the named estimator. */
    public double logZ(String name) {
        return logZ0 + estimate(name).logRatio();
    }

    /** The same runs with another headline estimator. */
    public BidirectionalResult withMethod(String name) {
        return new BidirectionalResult(name, backend, path, logZ0, forward, reverse, estimates, seed);
    }

    @Override
    public double logZ() {
        return logZ(method);
    }

    @Override
    public OptionalDouble standardError() {
        return estimate(method).stdErr();
    }

    @Override
    public double seconds() {
        return forward.seconds() + reverse.seconds();
    }

    /** Chain-sweeps of both directions. */
    public long sweeps() {
        return forward.sweeps() + reverse.sweeps();
    }
}
