package org.logz.estimate;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/** What every estimator's result has in common. */
public interface Estimate {
    /** The headline estimator. */
    Method method();

    String backend();

    /** The estimate of log Z. */
    double logZ();

    /** The run's Philox key. */
    long seed();

    /** Wall time of the run. */
    double seconds();

    /** The standard error of {@link #logZ()} from this run alone, where the method has a sound one. */
    OptionalDouble standardError();

    /**
     * Where Z sums over states: the largest {@code log f(x)} of the states the run visited, a lower bound
     * of log Z that the estimate never falls below ({@link ImpossibleEstimateException}); empty otherwise.
     */
    OptionalDouble visitedBound();

    /** What the run's own diagnostics say against its estimate; empty when they raise no doubt. */
    List<Warning> warnings();

    /**
     * An independent estimate of the same log Z that the run produced on the way and that its estimate is held against
     * (a RAISE run's forward run, whose end states it started from); empty for most runs.
     */
    default Optional<? extends Estimate> heldAgainst() {
        return Optional.empty();
    }
}
